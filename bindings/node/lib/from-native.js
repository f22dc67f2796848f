'use strict';
// The addon's failures as JumpErrors: for the binding's own modules, not exported by the package.
const { JumpError, errorFromDetail } = require('./errors');

/** Whether value is the addon's failure of a jump_* call: a plain object {status, detail} (numeric status,
 * JSON text detail) and no stack, which the JumpError made from it has. The addon returns it from a synchronous
 * method (throwing from C++ would cost more than the rest of the failure) and rejects with it. */
function isFailure(value) {
  return value !== null && typeof value === 'object' && typeof value.status === 'number' &&
    typeof value.detail === 'string' && !(value instanceof Error);
}

/** The addon's failure as a JumpError subclass; TypeErrors (wrong argument types) and anything else pass through
 * unchanged. */
function fromNative(error) {
  if (!isFailure(error)) return error;
  let detail = {};
  try {
    detail = JSON.parse(error.detail);
  } catch {
    // keep {}: the status alone still picks the class
  }
  return errorFromDetail(error.status, detail);
}

/** fn()'s result, or the JumpError of the addon failure it returned or threw. */
function call(fn) {
  let result;
  try {
    result = fn();
  } catch (error) {
    throw fromNative(error);
  }
  if (isFailure(result)) throw fromNative(result);
  return result;
}

module.exports = { fromNative, call };
