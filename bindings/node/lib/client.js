'use strict';
// Client: one jump_client in queue mode. Three kinds of calls:
//  - network calls libjump runs itself start with the _async C functions (no callbacks) and return Promises;
//    the addon pumps libjump's queue on the event loop and hands every document to #deliver, which settles the
//    Promise whose request id the completion names, or emits the event (#start);
//  - blocking calls without an _async form run on a thread of the addon and return Promises too (#work);
//  - calls that never wait on the network return at once (#call).
// What reaches the app has camelCase keys (camel-keys.js); libjump's own documents stay snake_case underneath.
const { EventEmitter } = require('node:events');
const addon = require('./addon');
const errors = require('./errors');
const host = require('./host');
const { AbortError } = require('./abort-error');
const { AppCallback } = require('./app-callback');
const { camelKeys, parseJson } = require('./camel-keys');
const { fromNative, call } = require('./from-native');
const { objectJson, optionsOf, signalOf } = require('./options');
const { UserRecord } = require('./record');
const { checkStorage, storageHandler } = require('./storage');

const CANCELLED = -14;
const STORAGE = -13;

const nothing = () => undefined;

/** What the methods of client-credentials.js and client-social.js use of a client's private plumbing. */
let plumbing;

class Client extends EventEmitter {
  #native;
  /** request id -> {resolve, reject, signal, onAbort, before, callback}: the Promises waiting for a completion */
  #pending = new Map();
  /** The app callbacks (authenticate, openUrl) of calls in flight: close() answers their waiting threads. */
  #callbacks = new Set();
  /** The host storage's failures: the last error thrown by the app's storage, attached as the cause of the
   * StorageError that follows it. */
  #storageFailures = { last: undefined, count: 0 };
  #closed = false;

  /**
   * @param {object} config jump_config keys (captureDomain, captureClientId, storageDirectory, ...)
   * @param {{storage?: {load(key: string): Uint8Array | null | undefined, save(key: string, data: Buffer): void,
   *   erase(key: string): void}}} [options] storage: keep the session in the app's own store instead of files
   */
  constructor(config, options = undefined) {
    super();
    if (config === null || typeof config !== 'object' || Array.isArray(config)) {
      throw new TypeError('config must be an object of jump_config keys');
    }
    const { storage } = optionsOf(options);
    let storageId;
    if (storage !== undefined) storageId = host.register(storageHandler(checkStorage(storage), this.#storageFailures));
    try {
      this.#native = this.#call(() => new addon.NativeClient(JSON.stringify(config), storageId));
    } catch (error) {
      if (storageId !== undefined) host.unregister(storageId); // no client will use it
      throw error;
    }
    // A property of the native object, not a reference held in C: the addon keeps no strong root to this
    // closure, so an unused, idle client can still be garbage-collected (its finalizer frees the client).
    this.#native.ondocument = (batch) => this.#deliver(batch);
  }

  // ---- sign-in and registration ------------------------------------------------------------------------

  /** Signs in with the user field of the flow's sign-in form (an email or a user name) and a password.
   * Resolves to {isNew, uuid, authorizationCode, keptChanges}. */
  signIn(user, password, options) {
    return this.#start(options, () => this.#native.signIn(user, password));
  }

  /** Registers a traditional account (attributes: record attributes such as email, displayName) and signs it
   * in. Resolves to {isNew: true, uuid, authorizationCode}; ValidationError carries invalidFields. */
  registerTraditional(attributes, password, options) {
    return this.#start(options, () => this.#native.registerTraditional(objectJson(attributes, 'attributes'), password));
  }

  /** Signs out (memory and storage; then the token is revoked best effort, on a thread of the addon: the loop
   * keeps running during the revoke). The session is gone from memory at once. */
  signOut(options) {
    return this.#work(options, () => this.#native.signOut(), nothing);
  }


  // ---- the record ---------------------------------------------------------------------------------------

  /** Sends the record's unsynced changes. Resolves to {changed: [paths], requests, renamed}. */
  sync(options) {
    return this.#start(options, () => this.#native.sync());
  }

  /** Fetches the record from the server, keeping unsynced edits on top (ConflictError when one also changed
   * there: record.revert(path) takes the server's value, sync() sends the local one). */
  fetchRecord(options) {
    return this.#start(options, () => this.#native.fetchRecord());
  }

  /** Downloads the Capture flow now (normally fetched when first needed) and caches it. */
  loadFlow(options) {
    return this.#work(options, () => this.#native.loadFlow(), nothing);
  }

  /** Downloads the record schema and caches it: record edits are then checked locally. Needs a signed-in user. */
  loadSchema(options) {
    return this.#work(options, () => this.#native.loadSchema(), nothing);
  }

  // ---- profile and password forms -----------------------------------------------------------------------

  /** Updates the profile through the edit-profile form: filled from the record (unsynced edits included) with
   * attributes (record attributes; null to send the record as it is) on top, then the record is fetched again. */
  updateProfile(attributes = null, options = undefined) {
    return this.#start(options, () =>
      this.#native.updateProfile(attributes === null ? null : objectJson(attributes, 'attributes')));
  }

  /** Changes the signed-in user's password (a wrong current one: ValidationError on its field). */
  changePassword(currentPassword, newPassword, options) {
    return this.#start(options, () => this.#native.changePassword(currentPassword, newPassword));
  }

  /** Asks Capture to email a password-reset link; no sign-in needed. */
  forgotPassword(email, options) {
    return this.#start(options, () => this.#native.forgotPassword(email));
  }

  /** Asks Capture to send the email-verification message again; no sign-in needed. */
  resendVerificationEmail(email, options) {
    return this.#start(options, () => this.#native.resendVerificationEmail(email));
  }


  // ---- several accounts (config accounts: 'multiple') ---------------------------------------------------

  /** The saved accounts, the active one first, then the most recently used: {accounts: [{uuid, email,
   * displayName, signedIn, reauthenticationRequired, lastUsed, active}], active: uuid or null}. With accounts
   * 'single': the signed-in user, if any. Reads the index on storage again (no network). */
  accounts() {
    return parseJson(this.#call(() => this.#native.accounts()));
  }

  /** Makes the saved account of uuid the active one, without a password (NotFoundError when none has it); its
   * token is refreshed first when stale. Emits 'account_switched'. Resolves to {}. */
  switchAccount(uuid, options) {
    return this.#start(options, () => this.#native.switchAccount(uuid));
  }

  /** Signs the account of uuid out and erases it on storage (its unsynced edits are discarded); the other
   * accounts stay signed in. A removed active account leaves no user active. NotFoundError when none has it. */
  removeAccount(uuid) {
    this.#call(() => this.#native.removeAccount(uuid));
  }

  // ---- state ----------------------------------------------------------------------------------------------

  /** The client's state: {signedIn, uuid, email, unsyncedChanges, restoreError, storageError, quarantine, ...}. */
  state() {
    return parseJson(this.#call(() => this.#native.state()));
  }

  /** Whether a user is signed in (false once closed). */
  get isSignedIn() {
    return this.#native.isSignedIn();
  }

  /** The signed-in user's record. */
  get record() {
    return new UserRecord(this.#native);
  }

  /** Reads the saved session and credential again (after a restoreError). */
  restore() {
    this.#call(() => this.#native.restore());
  }

  /** Erases the sessions set aside (state().quarantine). */
  eraseQuarantine() {
    this.#call(() => this.#native.eraseQuarantine());
  }

  /** Frees the client now (idempotent). Pending Promises of network calls reject with CancelledError (reason
   * "client_closed"), or AbortError when their signal had aborted; calls running on the addon's threads finish
   * first. Any later call throws (or rejects with) InvalidHandleError. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    for (const callback of this.#callbacks) callback.cancel();
    this.#native.close();
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of waiting) {
      entry.signal?.removeEventListener('abort', entry.onAbort);
      entry.callback?.done();
      if (entry.signal?.aborted) {
        entry.reject(new AbortError(undefined, { cause: entry.signal.reason }));
        continue;
      }
      entry.reject(
        new errors.CancelledError(CANCELLED, {
          status: CANCELLED,
          status_name: 'JUMP_E_CANCELLED',
          message: 'the client was closed',
          reason: 'client_closed',
        }),
      );
    }
  }

  get closed() {
    return this.#closed;
  }

  // ---- plumbing -------------------------------------------------------------------------------------------

  // The methods mixed in below reach the private members through these functions, which only they are given.
  static {
    plumbing = {
      native: (client) => client.#native,
      call: (client, fn) => client.#call(fn),
      start: (client, options, start, callback) => client.#start(options, start, callback),
      work: (client, options, start, parse, callback) => client.#work(options, start, parse, callback),
      withCallback: (client, options, fn, encode, run) => client.#withCallback(options, fn, encode, run),
    };
  }

  // A call that returns at once; a StorageError gets the app storage's error as its cause.
  #call(fn) {
    const before = this.#storageFailures.count;
    try {
      return call(fn);
    } catch (error) {
      throw this.#failure(error, before);
    }
  }

  #failure(error, storageBefore, callback) {
    if (callback?.error !== undefined && error instanceof errors.JumpError) return callback.error;
    if (error instanceof errors.StorageError && error.status === STORAGE && this.#storageFailures.count > storageBefore &&
        error.cause === undefined) {
      error.cause = this.#storageFailures.last;
    }
    return error;
  }

  // A call with an app function libjump calls back (authenticate, openUrl): registered for the call's length.
  #withCallback(options, fn, encode, run) {
    let signal;
    try {
      signal = signalOf(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const callback = new AppCallback(fn, encode, signal);
    this.#callbacks.add(callback);
    const finished = () => {
      callback.done();
      this.#callbacks.delete(callback);
    };
    return run(callback.id, callback).then(
      (value) => {
        finished();
        return value;
      },
      (error) => {
        finished();
        throw error;
      },
    );
  }

  // A blocking call on a thread of the addon. libjump cannot stop it, so an abort rejects at once with
  // AbortError while the call runs to its end in the background (as fs.promises does with its writes).
  #work(options, start, parse, callback = undefined) {
    let signal, running;
    const before = this.#storageFailures.count;
    try {
      signal = signalOf(options);
      if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
      running = call(start);
    } catch (error) {
      if (callback !== undefined) host.unregister(callback.id); // never handed to libjump, or never to be called
      return Promise.reject(error);
    }
    const settled = running.then(parse, (error) => {
      throw this.#failure(fromNative(error), before, callback);
    });
    if (signal === undefined) return settled;
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new AbortError(undefined, { cause: signal.reason }));
      signal.addEventListener('abort', onAbort, { once: true });
      settled.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  // A network call libjump runs: every failure is a rejection (argument errors included), as with fs.promises.
  #start(options, start, callback = undefined) {
    let signal, request;
    try {
      signal = signalOf(options);
      // Never started: nothing to cancel in libjump (Node's own APIs check the signal first too).
      if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
      request = call(start);
    } catch (error) {
      if (callback !== undefined) host.unregister(callback.id);
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, signal, onAbort: null, before: this.#storageFailures.count, callback };
      if (signal) {
        // jump_request_cancel: the completion then reports JUMP_E_CANCELLED (made an AbortError by #complete),
        // unless the call had finished. The Promise waits for that completion rather than rejecting here, so
        // that the client's state is settled (signed in or not) by the time the app handles the rejection.
        entry.onAbort = () => {
          try {
            this.#native.cancel(request.handle);
          } catch {
            // the client was closed meanwhile: close() rejected the Promise already
          }
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      // The request handle stays reachable from the closure above (or is dropped at once without a signal:
      // the operation goes on; only the handle is freed).
      this.#pending.set(request.id, entry);
      if (this.#pending.size === 1) this.#native.setActive(true); // keep the loop (and this client) alive
    });
  }

  #deliver(batch) {
    for (const text of batch) {
      let doc;
      try {
        doc = JSON.parse(text);
      } catch {
        continue; // libjump sends JSON; anything else is not ours to act on
      }
      if (doc?.kind === 'completion') this.#complete(doc);
      else if (doc?.kind === 'event') this.#emitEvent(doc);
      // other kinds (future ones included) are ignored, as jump.h asks
    }
  }

  #complete(doc) {
    const entry = this.#pending.get(doc.request_id);
    if (entry === undefined) return; // a start that failed synchronously (already rejected), or after close
    this.#pending.delete(doc.request_id);
    if (this.#pending.size === 0 && !this.#closed) this.#native.setActive(false);
    entry.signal?.removeEventListener('abort', entry.onAbort);
    if (doc.status === 0) {
      // Also when an abort came too late to cancel it: the call took effect, and saying otherwise would lie.
      entry.resolve(camelKeys(doc.result ?? {}));
    } else if (doc.status === CANCELLED && entry.signal?.aborted) {
      entry.reject(new AbortError(undefined, { cause: entry.signal.reason }));
    } else {
      entry.reject(this.#failure(errors.errorFromDetail(doc.status, doc.error), entry.before, entry.callback));
    }
  }

  // Emits "<event name>" and "event", both with the whole document (camelCase keys; the event names are
  // libjump's, as jump.h lists them). A listener that throws must not stop the other documents of the batch
  // from being delivered, so its error is rethrown on the next tick: an uncaught exception, as a throwing
  // listener is anywhere else in Node.
  #emitEvent(doc) {
    if (typeof doc.event !== 'string' || doc.event === 'error') return; // 'error' has special meaning here
    const event = camelKeys(doc);
    try {
      this.emit(doc.event, event);
      this.emit('event', event);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  }
}

// Sign-in tokens, credentials and requests; social sign-in and sharing: their own files, by area. Copied as
// class members are (non-enumerable methods), so Client.prototype is as if they were written in the class.
for (const methods of [require('./client-credentials'), require('./client-social')]) {
  const members = methods(plumbing).prototype;
  for (const name of Object.getOwnPropertyNames(members)) {
    if (name !== 'constructor') Object.defineProperty(Client.prototype, name, Object.getOwnPropertyDescriptor(members, name));
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Client.prototype[Symbol.dispose] = function dispose() {
    this.close();
  };
}

module.exports = { Client };
