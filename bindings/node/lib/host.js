'use strict';
// The JavaScript functions libjump calls back (host storage, identify's authenticate, the loopback's openUrl, the
// log sink), by number: the addon hands libjump a handler's id, and whenever libjump calls back, on whatever
// thread, the addon runs dispatch() on the JS thread (src/bridge.c). A handler answers with a number (a
// jump_status), a string or a Uint8Array (the bytes, JUMP_OK), null (nothing; "not found" for a load), or
// undefined to answer later through answer(token, value), which the addon's waiting thread then receives.
const addon = require('./addon');

const OK = 0;
const CANCELLED = -14;

/** id -> handler(kind, text, data, token) */
const handlers = new Map();
let nextId = 1;

/** Registers handler; its id, until libjump releases it (kind "release"). */
function register(handler) {
  while (handlers.has(nextId)) nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
  const id = nextId;
  nextId = nextId >= 0x7fffffff ? 1 : nextId + 1;
  handlers.set(id, handler);
  return id;
}

/** Forgets handler id now (when libjump never took it: the call that would have failed). */
function unregister(id) {
  handlers.delete(id);
}

function dispatch(kind, id, text, data, token) {
  if (kind === 'release') {
    handlers.delete(id);
    return OK;
  }
  const handler = handlers.get(id);
  if (handler === undefined) return CANCELLED;
  try {
    return handler(kind, text, data, token);
  } catch {
    return CANCELLED; // handlers catch their own errors; this is the last line of defence
  }
}

addon.setHostDispatcher(dispatch);

/** The late answer of a handler that returned undefined. */
function answer(token, value) {
  addon.answerHostCall(token, value);
}

function isThenable(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
}

module.exports = { register, unregister, answer, isThenable, OK, CANCELLED };
