'use strict';
// The addon's failures as JumpErrors: for the binding's own modules, not exported by the package.
const { JumpError, errorFromDetail } = require('./errors');

/** The addon throws a plain Error with numeric "status" and JSON text "detail" for a failed jump_* call; this
 * turns it into a JumpError. TypeErrors (wrong argument types) and anything else pass through unchanged. */
function fromNative(error) {
  if (!(error instanceof Error) || typeof error.status !== 'number' || error instanceof JumpError) return error;
  let detail = {};
  try {
    detail = JSON.parse(error.detail);
  } catch {
    // keep {}: the status alone still picks the class
  }
  return errorFromDetail(error.status, detail);
}

module.exports = { fromNative };
