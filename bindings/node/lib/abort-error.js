'use strict';
// What a call whose AbortSignal aborted rejects with: the AbortError of Node's own promise APIs
// (fs.promises, timers/promises, events.once, stream.finished), so that one `err.name === 'AbortError'` or
// `err.code === 'ABORT_ERR'` check handles them all. Node does not export its class, hence this copy.
// Not a JumpError: the caller asked for it, libjump did not fail.

class AbortError extends Error {
  /**
   * @param {string} [message]
   * @param {{cause?: unknown}} [options] cause: the signal's reason
   */
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.name = 'AbortError';
    this.code = 'ABORT_ERR';
  }
}

module.exports = { AbortError };
