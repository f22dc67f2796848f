'use strict';
// One Error subclass per jump_status code of jump.h, built from libjump's error detail (jump_error_last() for a
// synchronous failure, a completion's "error" for an asynchronous one), so both kinds look the same to callers.
const { camelKeys } = require('./camel-keys');

class JumpError extends Error {
  /**
   * @param {number} status the negative jump_status
   * @param {object} [detail] libjump's error detail as jump.h spells it ({status, status_name, message, ...})
   */
  constructor(status, detail = {}, options = undefined) {
    super(detail.message || STATUS_NAMES[status] || `libjump status ${status}`, options);
    this.name = new.target.name;
    this.status = status;
    this.statusName = detail.status_name || STATUS_NAMES[status] || null;
    // Node's convention for telling errors apart (err.code === 'ENOENT'): here the status name.
    this.code = this.statusName;
    this.detail = camelKeys(detail);
    this.reason = this.detail.reason ?? null;
    this.server = this.detail.server ?? null;
  }
}

class InvalidArgumentError extends JumpError {}
class InvalidHandleError extends JumpError {}
class NetworkError extends JumpError {}
class TimeoutError extends JumpError {}
class ServerError extends JumpError {}
class NotSignedInError extends JumpError {}
class BadCredentialsError extends JumpError {}
class MergeRequiredError extends JumpError {
  constructor(status, detail = {}, options) {
    super(status, detail, options);
    this.mergeToken = this.detail.mergeToken ?? null; // a secret: hand it back, do not log it
    this.existingProvider = this.detail.existingProvider ?? null;
    this.conflictingProvider = this.detail.conflictingProvider ?? null;
  }
}
class RegistrationRequiredError extends JumpError {
  constructor(status, detail = {}, options) {
    super(status, detail, options);
    this.socialRegistrationToken = this.detail.socialRegistrationToken ?? null; // a secret
    this.preregRecord = this.detail.preregRecord ?? null;
    this.preregFields = this.detail.preregFields ?? null;
    this.provider = this.detail.provider ?? null;
  }
}
class ValidationError extends JumpError {
  constructor(status, detail = {}, options) {
    super(status, detail, options);
    /** @type {Record<string, string[]>} field or form name -> messages in captureLocale */
    this.invalidFields = this.detail.invalidFields ?? {};
  }
}
class NotFoundError extends JumpError {}
class SessionExpiredError extends JumpError {}
class StorageError extends JumpError {}
class CancelledError extends JumpError {}
class UnsupportedError extends JumpError {}
class BusyError extends JumpError {}
class InternalError extends JumpError {}
class ConflictError extends JumpError {
  constructor(status, detail = {}, options) {
    super(status, detail, options);
    this.conflicts = this.detail.conflicts ?? [];
  }
}
class AlreadySignedInError extends JumpError {}

// Codes are never renumbered (jump.h), so this table is stable.
const CLASSES = {
  [-1]: InvalidArgumentError,
  [-2]: InvalidHandleError,
  [-3]: NetworkError,
  [-4]: TimeoutError,
  [-5]: ServerError,
  [-6]: NotSignedInError,
  [-7]: BadCredentialsError,
  [-8]: MergeRequiredError,
  [-9]: RegistrationRequiredError,
  [-10]: ValidationError,
  [-11]: NotFoundError,
  [-12]: SessionExpiredError,
  [-13]: StorageError,
  [-14]: CancelledError,
  [-15]: UnsupportedError,
  [-16]: BusyError,
  [-17]: InternalError,
  [-18]: ConflictError,
  [-19]: AlreadySignedInError,
};

const STATUS_NAMES = {
  [-1]: 'JUMP_E_INVALID_ARGUMENT',
  [-2]: 'JUMP_E_INVALID_HANDLE',
  [-3]: 'JUMP_E_NETWORK',
  [-4]: 'JUMP_E_TIMEOUT',
  [-5]: 'JUMP_E_SERVER',
  [-6]: 'JUMP_E_NOT_SIGNED_IN',
  [-7]: 'JUMP_E_BAD_CREDENTIALS',
  [-8]: 'JUMP_E_MERGE_REQUIRED',
  [-9]: 'JUMP_E_REGISTRATION_REQUIRED',
  [-10]: 'JUMP_E_VALIDATION',
  [-11]: 'JUMP_E_NOT_FOUND',
  [-12]: 'JUMP_E_EXPIRED',
  [-13]: 'JUMP_E_STORAGE',
  [-14]: 'JUMP_E_CANCELLED',
  [-15]: 'JUMP_E_UNSUPPORTED',
  [-16]: 'JUMP_E_BUSY',
  [-17]: 'JUMP_E_INTERNAL',
  [-18]: 'JUMP_E_CONFLICT',
  [-19]: 'JUMP_E_ALREADY_SIGNED_IN',
};

/** The JumpError subclass for a status and its detail (an unknown future code gets the base class). */
function errorFromDetail(status, detail, options) {
  const Class = CLASSES[status] || JumpError;
  return new Class(status, detail && typeof detail === 'object' ? detail : {}, options);
}

module.exports = {
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
};
