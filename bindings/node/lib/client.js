'use strict';
// Client: one jump_client in queue mode. Network calls start with the _async C functions (no callbacks) and
// return Promises; the addon pumps libjump's queue on the event loop and hands every document to #deliver,
// which settles the Promise whose request id the completion names, or emits the event. What reaches the app
// has camelCase keys (camel-keys.js); libjump's own documents stay snake_case underneath.
const { EventEmitter } = require('node:events');
const addon = require('./addon');
const errors = require('./errors');
const { AbortError } = require('./abort-error');
const { camelKeys } = require('./camel-keys');
const { fromNative } = require('./from-native');
const { UserRecord } = require('./record');

const CANCELLED = -14;

function call(fn) {
  try {
    return fn();
  } catch (error) {
    throw fromNative(error);
  }
}

function checkOptions(options) {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('options.signal must be an AbortSignal');
  }
  return signal;
}

// socialSignInNative's options: tokenSecret goes as its own argument, mergeToken and link as options_json.
function socialOptions(options) {
  if (options === undefined) return { tokenSecret: null, json: null };
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { tokenSecret, mergeToken, link } = options;
  if (tokenSecret !== undefined && tokenSecret !== null && typeof tokenSecret !== 'string') {
    throw new TypeError('options.tokenSecret must be a string');
  }
  if (mergeToken !== undefined && mergeToken !== null && typeof mergeToken !== 'string') {
    throw new TypeError('options.mergeToken must be a string');
  }
  if (link !== undefined && typeof link !== 'boolean') throw new TypeError('options.link must be a boolean');
  const json = {};
  if (typeof mergeToken === 'string') json.merge_token = mergeToken;
  if (link !== undefined) json.link = link;
  return { tokenSecret: tokenSecret ?? null, json: Object.keys(json).length ? JSON.stringify(json) : null };
}

class Client extends EventEmitter {
  #native;
  /** request id -> {resolve, reject, signal, onAbort}: the Promises still waiting for their completion */
  #pending = new Map();
  #closed = false;

  /**
   * @param {object} config jump_config keys (captureDomain, captureClientId, storageDirectory, ...)
   */
  constructor(config) {
    super();
    if (config === null || typeof config !== 'object' || Array.isArray(config)) {
      throw new TypeError('config must be an object of jump_config keys');
    }
    this.#native = call(() => new addon.NativeClient(JSON.stringify(config)));
    // A property of the native object, not a reference held in C: the addon keeps no strong root to this
    // closure, so an unused, idle client can still be garbage-collected (its finalizer frees the client).
    this.#native.ondocument = (batch) => this.#deliver(batch);
  }

  /** Signs in with an email (or user name, per traditionalSignInType) and password.
   * Resolves to {isNew, uuid, authorizationCode, keptChanges}. */
  signIn(user, password, options) {
    return this.#start(options, () => this.#native.signIn(user, password));
  }

  /** Registers a traditional account (attributes: record attributes such as email, displayName) and signs it
   * in. Resolves to {isNew: true, uuid, authorizationCode}; ValidationError carries invalidFields. */
  registerTraditional(attributes, password, options) {
    if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
      return Promise.reject(new TypeError('attributes must be an object'));
    }
    return this.#start(options, () => this.#native.registerTraditional(JSON.stringify(attributes), password));
  }

  /** Signs in with a provider SDK's own access token (tokenSecret: the OAuth1 secret, twitter). options.mergeToken
   * (from MergeRequiredError: sign in with the existing provider and merge) and options.link (add the identity
   * to the signed-in user). Resolves to the social outcome {outcome, provider, isNew, uuid, merged, ...};
   * RegistrationRequiredError and MergeRequiredError carry what the next step needs. */
  socialSignInNative(provider, token, options) {
    let native;
    try {
      native = socialOptions(options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#start(options, () =>
      this.#native.socialSignInNative(provider, token, native.tokenSecret, native.json),
    );
  }

  /** Completes a two-step social registration (after RegistrationRequiredError) with record attributes, e.g.
   * error.preregRecord completed by the user. Resolves to {isNew: true, uuid, ...}. */
  registerSocial(socialRegistrationToken, attributes, options) {
    if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
      return Promise.reject(new TypeError('attributes must be an object'));
    }
    return this.#start(options, () => this.#native.registerSocial(socialRegistrationToken, JSON.stringify(attributes)));
  }

  /** signIn that also merges mergeToken's identity (MergeRequiredError with existingProvider "capture") into
   * the account. Resolves as signIn plus merged: true. */
  signInMerge(user, password, mergeToken, options) {
    return this.#start(options, () => this.#native.signInMerge(user, password, mergeToken));
  }

  /** Exchanges a sign-in token (from the app's backend) for an access + refresh session.
   * Resolves to {userId, changed, migrated}. */
  signInWithToken(signInToken, options) {
    return this.#start(options, () => this.#native.signInWithToken(signInToken));
  }

  /** Sends the record's unsynced changes. Resolves to {changed: [paths], requests, renamed}. */
  sync(options) {
    return this.#start(options, () => this.#native.sync());
  }

  /** Fetches the record from the server, keeping unsynced edits on top. */
  fetchRecord(options) {
    return this.#start(options, () => this.#native.fetchRecord());
  }

  /** Signs out (memory and storage; then the token is revoked best effort). The blocking C call runs on libuv's
   * thread pool, so the event loop keeps running during the revoke; the session is gone from memory at once. */
  async signOut() {
    const done = call(() => this.#native.signOut());
    try {
      await done;
    } catch (error) {
      throw fromNative(error);
    }
  }

  /** The client's state: {signedIn, uuid, email, unsyncedChanges, ...}. */
  state() {
    return camelKeys(JSON.parse(call(() => this.#native.state())));
  }

  /** Whether a user is signed in (false once closed). */
  get isSignedIn() {
    return this.#native.isSignedIn();
  }

  /** The signed-in user's record. */
  get record() {
    return new UserRecord(this.#native);
  }

  /** Frees the client now (idempotent). Pending Promises reject with CancelledError (reason "client_closed"),
   * or AbortError when their signal had aborted; any later call throws (or rejects with) InvalidHandleError. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#native.close();
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of waiting) {
      entry.signal?.removeEventListener('abort', entry.onAbort);
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

  // Every failure of a network call is a rejection (argument errors included), as with fs.promises.
  #start(options, start) {
    let signal, request;
    try {
      signal = checkOptions(options);
      // Never started: nothing to cancel in libjump (Node's own APIs check the signal first too).
      if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
      request = call(start);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const entry = { resolve, reject, signal, onAbort: null };
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
      entry.reject(errors.errorFromDetail(doc.status, doc.error));
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

if (typeof Symbol.dispose === 'symbol') {
  Client.prototype[Symbol.dispose] = function dispose() {
    this.close();
  };
}

module.exports = { Client };
