// libjump for Node.js as an ES module: `import { Client } from 'libjump'` (or `import jump from 'libjump'`).
// The same objects as the CommonJS entry (index.js), which this re-exports: one addon, one set of classes,
// so `instanceof` agrees between code that imports and code that requires.
import { createRequire } from 'node:module';

const jump = createRequire(import.meta.url)('./index.js');

export default jump;
export const {
  Client,
  UserRecord,
  JumpError,
  InvalidArgumentError,
  InvalidHandleError,
  NetworkError,
  TimeoutError,
  ServerError,
  NotSignedInError,
  BadCredentialsError,
  MergeRequiredError,
  RegistrationRequiredError,
  ValidationError,
  NotFoundError,
  SessionExpiredError,
  StorageError,
  CancelledError,
  UnsupportedError,
  BusyError,
  InternalError,
  ConflictError,
  AlreadySignedInError,
  STATUS_NAMES,
  errorFromDetail,
  libraryVersion,
} = jump;
