// The errors: JumpError, a subclass per status, and AbortError:
// part of the Node.js binding's types, re-exported by ../index.d.ts.
// Hand-written; keep in step with lib/*.js (test/typescript.test.js compiles them with tsc --strict).
import type { JsonValue } from './config';
import type { ShareOutcome } from './social';
import type { ErrorDetail as GeneratedErrorDetail, ServerAnswer as GeneratedServerAnswer } from './results.generated';

/** The name of a jump_status failure: a JumpError's code. */
export type StatusName =
  | 'JUMP_E_INVALID_ARGUMENT'
  | 'JUMP_E_INVALID_HANDLE'
  | 'JUMP_E_NETWORK'
  | 'JUMP_E_TIMEOUT'
  | 'JUMP_E_SERVER'
  | 'JUMP_E_NOT_SIGNED_IN'
  | 'JUMP_E_BAD_CREDENTIALS'
  | 'JUMP_E_MERGE_REQUIRED'
  | 'JUMP_E_REGISTRATION_REQUIRED'
  | 'JUMP_E_VALIDATION'
  | 'JUMP_E_NOT_FOUND'
  | 'JUMP_E_EXPIRED'
  | 'JUMP_E_STORAGE'
  | 'JUMP_E_CANCELLED'
  | 'JUMP_E_UNSUPPORTED'
  | 'JUMP_E_BUSY'
  | 'JUMP_E_INTERNAL'
  | 'JUMP_E_CONFLICT'
  | 'JUMP_E_ALREADY_SIGNED_IN';

/** Capture's error answer, in Capture's words (the server_answer document, and whatever else Capture said). */
export interface ServerAnswer extends GeneratedServerAnswer {
  [key: string]: unknown;
}

/** libjump's error detail (jump_error_last() or a completion's "error"; the error_detail document) with camelCase
 * keys, and the keys one function adds (jump.h). */
export interface ErrorDetail extends Omit<GeneratedErrorDetail, 'server'> {
  server?: ServerAnswer;
  [key: string]: unknown;
}

/** A failed libjump call. `code` is the status name, for `switch (err.code)`. */
export class JumpError extends Error {
  /** detail: libjump's error detail as jump.h spells it ({status, status_name, message, ...}). */
  constructor(status: number, detail?: { [key: string]: unknown }, options?: { cause?: unknown });
  /** The negative jump_status code. */
  readonly status: number;
  /** The status name, e.g. "JUMP_E_VALIDATION" (Node's convention: err.code). */
  readonly code: StatusName;
  /** The same as code. */
  readonly statusName: StatusName | null;
  readonly detail: Partial<ErrorDetail>;
  readonly reason: string | null;
  readonly server: ServerAnswer | null;
}
export class InvalidArgumentError extends JumpError {
  readonly code: 'JUMP_E_INVALID_ARGUMENT';
  /** The argument, config key or record path refused, when libjump names one. */
  readonly argument: string | null;
}
export class InvalidHandleError extends JumpError {
  readonly code: 'JUMP_E_INVALID_HANDLE';
}
export class NetworkError extends JumpError {
  readonly code: 'JUMP_E_NETWORK';
}
export class TimeoutError extends JumpError {
  readonly code: 'JUMP_E_TIMEOUT';
}
export class ServerError extends JumpError {
  readonly code: 'JUMP_E_SERVER';
  /** share: each provider's outcome (the failed ones with errorClass), or null. */
  readonly results: { [provider: string]: ShareOutcome } | null;
}
export class NotSignedInError extends JumpError {
  readonly code: 'JUMP_E_NOT_SIGNED_IN';
}
export class BadCredentialsError extends JumpError {
  readonly code: 'JUMP_E_BAD_CREDENTIALS';
}
export class MergeRequiredError extends JumpError {
  readonly code: 'JUMP_E_MERGE_REQUIRED';
  readonly mergeToken: string | null;
  readonly existingProvider: string | null;
  readonly conflictingProvider: string | null;
}
export class RegistrationRequiredError extends JumpError {
  readonly code: 'JUMP_E_REGISTRATION_REQUIRED';
  readonly socialRegistrationToken: string | null;
  /** Record attributes, with the schema's names. */
  readonly preregRecord: { [attribute: string]: JsonValue } | null;
  /** The form fields the prereg record maps to, with the flow's names. */
  readonly preregFields: { [field: string]: JsonValue } | null;
  readonly provider: string | null;
}
export class ValidationError extends JumpError {
  readonly code: 'JUMP_E_VALIDATION';
  /** Field or form name (the flow's) -> messages in captureLocale. */
  readonly invalidFields: { [field: string]: string[] };
}
export class NotFoundError extends JumpError {
  readonly code: 'JUMP_E_NOT_FOUND';
}
export class SessionExpiredError extends JumpError {
  readonly code: 'JUMP_E_EXPIRED';
}
export class StorageError extends JumpError {
  readonly code: 'JUMP_E_STORAGE';
}
/** libjump cancelled the call: the client was closed (reason "client_closed"), or the user cancelled on the
 * provider. An aborted signal gives AbortError instead. */
export class CancelledError extends JumpError {
  readonly code: 'JUMP_E_CANCELLED';
}
export class UnsupportedError extends JumpError {
  readonly code: 'JUMP_E_UNSUPPORTED';
}
export class BusyError extends JumpError {
  readonly code: 'JUMP_E_BUSY';
}
export class InternalError extends JumpError {
  readonly code: 'JUMP_E_INTERNAL';
}
export class ConflictError extends JumpError {
  readonly code: 'JUMP_E_CONFLICT';
  /** local, server and base are the attribute's values (the user's data). */
  readonly conflicts: Array<{ path: string; local: JsonValue; server: JsonValue; base: JsonValue }>;
}
export class AlreadySignedInError extends JumpError {
  readonly code: 'JUMP_E_ALREADY_SIGNED_IN';
}

/** A call whose AbortSignal aborted, as Node's own AbortError (fs.promises, timers/promises): not a JumpError. */
export class AbortError extends Error {
  constructor(message?: string, options?: { cause?: unknown });
  readonly name: 'AbortError';
  readonly code: 'ABORT_ERR';
}
