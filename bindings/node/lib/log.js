'use strict';
// libjump's log lines (jump_set_log_callback: one slot for the whole process) to a function or a console. The
// addon drops the lines below the chosen level before anything reaches JavaScript, and delivers the rest in
// order on a later turn of the event loop, whatever thread logged them. Lines are redacted by libjump: no
// password, token or secret reaches them.
const addon = require('./addon');
const { call } = require('./from-native');
const host = require('./host');

const LEVELS = { debug: 0, info: 1, warning: 2, error: 3 };
const CONSOLE_METHODS = { debug: 'debug', info: 'info', warning: 'warn', error: 'error' };

/** The installed sink (a function of a line) and its level, for the binding's own lines (report). */
let installed = null;

function isConsole(value) {
  return value !== null && typeof value === 'object' && ['debug', 'info', 'warn', 'error'].every((m) => typeof value[m] === 'function');
}

/**
 * Sends libjump's log lines to callback(line) ({version, kind: 'log', level, message}), or to a console
 * (console.debug/info/warn/error by level, prefixed "libjump:"); null stops them. options.level: the lowest
 * level passed on ('debug', 'info', 'warning' or 'error'; default 'debug' for a function, 'warning' for a
 * console). A callback that throws does not stop the lines: its error is rethrown on the next tick, an
 * uncaught exception as a throwing event listener's would be.
 * @param {((line: object) => void) | Console | null} callback
 * @param {{level?: 'debug'|'info'|'warning'|'error'}} [options]
 */
function setLogCallback(callback, options = undefined) {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError('options must be an object');
  }
  if (callback === null || callback === undefined) {
    call(() => addon.setLogCallback(0, 0));
    installed = null;
    return;
  }
  let sink;
  if (typeof callback === 'function') {
    sink = callback;
  } else if (isConsole(callback)) {
    sink = (line) => callback[CONSOLE_METHODS[line.level] ?? 'info'](`libjump: ${line.message}`);
  } else {
    throw new TypeError('the log callback must be a function, a console or null');
  }
  const level = options?.level ?? (typeof callback === 'function' ? 'debug' : 'warning');
  if (!(level in LEVELS)) throw new TypeError("options.level must be 'debug', 'info', 'warning' or 'error'");
  const deliver = (line) => {
    try {
      sink(line);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  };
  const id = host.register((kind, text) => {
    if (kind !== 'log') return host.OK;
    let line;
    try {
      line = JSON.parse(text);
    } catch {
      return host.OK; // libjump sends JSON; anything else is not ours to act on
    }
    if (line?.kind === 'log') deliver(line);
    return host.OK;
  });
  try {
    call(() => addon.setLogCallback(id, LEVELS[level]));
  } catch (error) {
    host.unregister(id);
    throw error;
  }
  installed = { deliver, level: LEVELS[level] };
}

/** A line of the binding's own (a failing storage function), to the installed sink on the next tick: never
 * inside the libjump call that is running now, which may hold the client's lock. */
function report(level, message) {
  const sink = installed;
  if (sink === null || LEVELS[level] < sink.level) return;
  process.nextTick(() => sink.deliver({ version: 1, kind: 'log', level, message }));
}

module.exports = { setLogCallback, report };
