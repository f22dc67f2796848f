'use strict';
// Host storage (jump_config_set_storage): the session, its pending edits and libjump's caches kept in the app's
// own store (a keychain, an encrypted file, a database) instead of files in storageDirectory. The functions
// run on the JS thread: right away when the libjump call needing them is a synchronous one of this thread
// (record.set saving the edit), otherwise when the loop gets to them, the libjump thread waiting meanwhile.
const host = require('./host');
const log = require('./log');

const STORAGE = -13;

/** An object with load, save and erase functions, or a TypeError. */
function checkStorage(storage) {
  if (storage === null || typeof storage !== 'object') throw new TypeError('options.storage must be an object');
  const missing = ['load', 'save', 'erase'].filter((name) => typeof storage[name] !== 'function');
  if (missing.length) throw new TypeError(`options.storage lacks the function(s) ${missing.join(', ')}`);
  return storage;
}

/**
 * The handler of storage for lib/host.js. A function that throws, returns a Promise or (load) returns something
 * other than a Uint8Array, null or undefined fails with JUMP_E_STORAGE, which libjump treats as a store that
 * cannot be read or written (it deletes nothing); the error goes to the log sink and to failures.last.
 * @param {{load: Function, save: Function, erase: Function}} storage
 * @param {{last: unknown, count: number}} failures where the last error is kept (lib/client.js attaches it as
 *   the cause of the StorageError the app sees)
 */
function storageHandler(storage, failures) {
  const fail = (kind, key, error) => {
    failures.last = error;
    failures.count++;
    log.report('error', `host storage ${kind}(${JSON.stringify(key)}) failed: ${error?.message ?? error}`);
    return STORAGE;
  };
  const synchronous = (kind, value) => {
    if (host.isThenable(value)) throw new TypeError(`storage.${kind} must return synchronously, not a Promise`);
    return value;
  };
  return (kind, key, data) => {
    try {
      switch (kind) {
        case 'load': {
          const value = synchronous('load', storage.load(key));
          if (value === null || value === undefined) return null;
          if (!(value instanceof Uint8Array)) {
            throw new TypeError(`storage.load must return a Uint8Array (a Buffer), null or undefined, not ${typeof value}`);
          }
          return value;
        }
        case 'save':
          synchronous('save', storage.save(key, data));
          return host.OK;
        case 'erase':
          synchronous('erase', storage.erase(key));
          return host.OK;
        default:
          return host.OK;
      }
    } catch (error) {
      return fail(kind, key, error);
    }
  };
}

module.exports = { checkStorage, storageHandler };
