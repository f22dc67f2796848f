'use strict';
// One Error subclass per jump_status code of jump.h, built from libjump's error detail (jump_error_last() for a
// synchronous failure, a completion's "error" for an asynchronous one), so both kinds look the same to callers.
const { camelKeys } = require('./camel-keys');
// The status names and which class stands for which code are generated from include/jump_api.json.
const { STATUS_NAMES, ERROR_CLASSES } = require('./statuses.generated');

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

class InvalidArgumentError extends JumpError {
  constructor(status, detail = {}, options) {
    super(status, detail, options);
    /** The argument, config key or record path libjump refused, when it names one. */
    this.argument = this.detail.argument ?? null;
  }
}
class InvalidHandleError extends JumpError {}
class NetworkError extends JumpError {}
class TimeoutError extends JumpError {}
class ServerError extends JumpError {
  constructor(status, detail = {}, options) {
    super(status, detail, options);
    /** share: each provider's outcome ({ok, method} or {ok: false, errorClass, code, message}), or null. */
    this.results = this.detail.results ?? null;
  }
}
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

/** The JumpError subclass for a status and its detail (an unknown future code gets the base class). */
function errorFromDetail(status, detail, options) {
  const Class = module.exports[ERROR_CLASSES[status]] || JumpError;
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
