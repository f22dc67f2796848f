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
const { AppCallback, encodeCredential, encodeOpened } = require('./app-callback');
const { camelKeys } = require('./camel-keys');
const { fromNative, call } = require('./from-native');
const { checkBoolean, checkInteger, checkString, objectJson, optionsOf, signalOf, socialOptionsJson } = require('./options');
const { UserRecord } = require('./record');
const { checkStorage, storageHandler } = require('./storage');

const CANCELLED = -14;
const STORAGE = -13;
const FORCE_REFRESH = 1; // jump.h's JUMP_CREDENTIALS_FORCE_REFRESH

const parseJson = (text) => camelKeys(JSON.parse(text));
const nothing = () => undefined;

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

  // ---- sign-in tokens, API keys, identify ---------------------------------------------------------------

  /** Exchanges a sign-in token (from the app's backend) for an access + refresh session.
   * Resolves to {userId, changed, migrated}; AlreadySignedInError (detail.mismatch) for another user. */
  signInWithToken(signInToken, options) {
    return this.#start(options, () => this.#native.signInWithToken(signInToken));
  }

  /** API-key mode: requests carry apiKey in the apiKeyHeader header. userId may be null (configured, no user);
   * environment "production" (default), "sandbox", "dev" or "local"; region "us" (default) or "eu". */
  useApiKey(apiKey, options) {
    const { userId = null, environment = 'production', region = 'us' } = optionsOf(options);
    checkString(userId, 'options.userId', { optional: true });
    this.#call(() => this.#native.useApiKey(apiKey, userId, environment, region));
  }

  /** The sign-in status: {configured, signedIn, useApiKey, useSignInToken, pendingReauthentication, userId,
   * teamId, environment, region, externalUserId, restoreError}. Changes are "status_changed" events. */
  status() {
    return parseJson(this.#call(() => this.#native.status()));
  }

  /**
   * Makes the signed-in user the one of the app's externalUserId. authenticate(externalUserId, {signal}) is
   * called (on the event loop) only when the user differs, and gives a sign-in token from the app's backend (a
   * string, or {type: 'sign_in_token', signInToken}) or API-key credentials ({type: 'api_key', apiKey, userId,
   * environment, region}), or a Promise of one; if it throws or rejects, the identify fails with that error and
   * changes nothing. Resolves to {action: 'none'|'kept'|'reauthenticated'|'signed_in'|'switched', userId}.
   */
  identifyExternalUser(externalUserId, authenticate, options) {
    if (typeof authenticate !== 'function') return Promise.reject(new TypeError('authenticate must be a function'));
    return this.#withCallback(options, authenticate, encodeCredential, (id, callback) =>
      this.#work(options, () => this.#native.identifyExternalUser(checkString(externalUserId, 'externalUserId'), id),
        parseJson, callback));
  }

  // ---- credentials and authorized requests --------------------------------------------------------------

  /** The credential request() would send: {kind: 'capture'|'sign_in_token'|'api_key', accessToken (a secret;
   * the API key in API-key mode), expiresAt, expiresIn, refreshed}. Refreshed first (one request for all
   * callers) only when it lasts minTtl seconds or less, or with options.force; otherwise no request is made. */
  credentials(minTtl = 0, options = undefined) {
    return this.#start(options, () => {
      const { force } = optionsOf(options);
      checkBoolean(force, 'options.force');
      return this.#native.credentials(checkInteger(minTtl, 'minTtl'), force ? FORCE_REFRESH : 0);
    });
  }

  /** Whether the credential held now lasts more than minTtl seconds (an API key always does). Memory only: no
   * network, never waits for a refresh. False when signed out, closed, or for a negative or non-integer minTtl. */
  hasValidCredentials(minTtl = 0) {
    if (!Number.isSafeInteger(minTtl)) return false;
    return this.#native.hasValidCredentials(minTtl);
  }

  /** A valid access token (refreshed first when it expires within tokenRefreshMarginSeconds). A secret. */
  accessToken(options) {
    return this.#work(options, () => this.#native.accessToken(), (token) => token);
  }

  /** Refreshes the access token now (concurrent refreshes share one request). */
  refreshAccessToken(options) {
    return this.#work(options, () => this.#native.refreshAccessToken(), nothing);
  }

  /**
   * Sends method to url with the client's credential (the sign-in-token session's bearer token, else the API
   * key, else the Capture access token): url relative to that credential's server ("/v2/...") or absolute on
   * it. options.headers: extra headers; options.body: a string or a Uint8Array (Buffer). Expiring tokens are
   * refreshed first; a 401 refreshes once and replays once. Resolves to {status, headers: [[name, value]],
   * body} (body null and bodyBase64 set when it is not UTF-8); an HTTP error status is not a rejection.
   */
  request(method, url, options) {
    return this.#start(options, () => {
      const { headers, body } = optionsOf(options);
      let headersJson = null;
      if (headers !== undefined && headers !== null) {
        if (typeof headers !== 'object' || Array.isArray(headers)) throw new TypeError('options.headers must be an object');
        for (const [name, value] of Object.entries(headers)) checkString(value, `options.headers[${JSON.stringify(name)}]`);
        headersJson = JSON.stringify(headers);
      }
      if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) {
        throw new TypeError('options.body must be a string or a Uint8Array');
      }
      return this.#native.request(method, url, headersJson, body ?? null);
    });
  }

  /** Web login: takes the token a login page left in its cookies (options.cookies: a Cookie header or
   * Set-Cookie lines) or its title (options.title, "oauth_token=..."), for pageUrl's origin; request() then sends
   * it there. Returns the token (a secret). NotFoundError when neither holds it. */
  useWebLogin(pageUrl, options) {
    const { cookies = null, title = null } = optionsOf(options);
    return this.#call(() => this.#native.useWebLogin(pageUrl, cookies, title));
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

  // ---- social sign-in (Engage), registration, merge, linking, sharing ------------------------------------

  /** Fetches the Engage configuration (If-None-Match with the cached ETag): {changed, fromCache}. */
  loadEngageConfig(options) {
    return this.#work(options, () => this.#native.loadEngageConfig(), parseJson);
  }

  /** The providers: {signIn: [{name, friendlyName, requiresInput, inputPrompt, inputLabel, custom}], sharing:
   * [{name, friendlyName, properties}], hideTagline}; loads the configuration when needed. */
  providers(options) {
    return this.#work(options, () => this.#native.providers(), parseJson);
  }

  /** Begins a browser sign-in: {url, state, completion: 'device'|'redirect', completionPrefix}. Open url in the
   * system browser; pass the URL it ends on (starting with completionPrefix) to socialComplete. Options: input
   * (for providers with requiresInput), forceReauth, link (add the identity to the signed-in user), mergeToken
   * (from MergeRequiredError), redirectUri. */
  socialBegin(provider, options) {
    return this.#work(options, () => {
      const json = socialOptionsJson(optionsOf(options), ['input', 'forceReauth', 'link', 'mergeToken', 'redirectUri']);
      return this.#native.socialBegin(provider, json);
    }, parseJson);
  }

  /** Completes a begun sign-in with the URL the browser ended on: the social outcome (see socialSignInNative).
   * A URL that completes no sign-in begun here is InvalidArgumentError (detail.reason) and changes nothing. */
  socialComplete(url, options) {
    return this.#start(options, () => this.#native.socialComplete(url));
  }

  /**
   * Browser sign-in for desktop and command-line apps: libjump listens on 127.0.0.1, calls openUrl(url,
   * {signal}) once (on the event loop: hand the URL to the browser; a Promise is waited for), and resolves to the
   * outcome once the browser lands on the listener. Options: timeoutMs (default 5 minutes, then TimeoutError),
   * input, forceReauth, link, mergeToken, signal (aborting stops the wait). An openUrl that throws or rejects ends
   * the sign-in, rejecting with its error.
   */
  socialSignInLoopback(provider, openUrl, options) {
    if (typeof openUrl !== 'function') return Promise.reject(new TypeError('openUrl must be a function'));
    return this.#withCallback(options, openUrl, encodeOpened, (id, callback) =>
      this.#start(options, () => {
        const all = optionsOf(options);
        const timeout = all.timeoutMs === undefined ? 0 : checkInteger(all.timeoutMs, 'options.timeoutMs');
        const json = socialOptionsJson(all, ['input', 'forceReauth', 'link', 'mergeToken']);
        return this.#native.socialSignInLoopback(checkString(provider, 'provider'), json, id, timeout);
      }, callback));
  }

  /** Signs in with a provider SDK's own access token (tokenSecret: the OAuth1 secret, twitter). options.mergeToken
   * (from MergeRequiredError: sign in with the existing provider and merge) and options.link (add the identity
   * to the signed-in user). Resolves to the social outcome {outcome, provider, isNew, uuid, merged, ...};
   * RegistrationRequiredError and MergeRequiredError carry what the next step needs. */
  socialSignInNative(provider, token, options) {
    return this.#start(options, () => {
      const all = optionsOf(options);
      const secret = checkString(all.tokenSecret, 'options.tokenSecret', { optional: true });
      return this.#native.socialSignInNative(provider, token, secret, socialOptionsJson(all, ['mergeToken', 'link']));
    });
  }

  /** Completes a two-step social registration (after RegistrationRequiredError) with record attributes, e.g.
   * error.preregRecord completed by the user. Resolves to {isNew: true, uuid, ...}. */
  registerSocial(socialRegistrationToken, attributes, options) {
    return this.#start(options, () =>
      this.#native.registerSocial(socialRegistrationToken, objectJson(attributes, 'attributes')));
  }

  /** signIn that also merges mergeToken's identity (MergeRequiredError with existingProvider "capture") into
   * the account. Resolves as signIn plus merged: true. */
  signInMerge(user, password, mergeToken, options) {
    return this.#start(options, () => this.#native.signInMerge(user, password, mergeToken));
  }

  /** The signed-in user's linked identities: [{identifier, domain, provider, displayName, email, path}]. */
  linkedProfiles() {
    return parseJson(this.#call(() => this.#native.linkedProfiles()));
  }

  /** Unlinks an identity, then fetches the record. The last identity of an account without a password is
   * refused first: InvalidArgumentError with reason "last_identity". */
  unlinkAccount(identifier, options) {
    return this.#start(options, () => this.#native.unlinkAccount(identifier));
  }

  /** Engage-only mode: the app backend URL the Engage token is POSTed to after each social sign-in (its answer
   * is the outcome's tokenUrlResponse); null removes it. */
  setTokenUrl(url) {
    this.#call(() => this.#native.setTokenUrl(url));
  }

  /** Shares activity ({action, url, title, description, user_generated_content, action_links, media,
   * properties}: Engage's activity, with Engage's names) to each sharing provider the user signed in with
   * through the browser. Resolves to {results: {<provider>: {ok: true, method}}}; ServerError (err.results)
   * when any provider failed. */
  share(activity, providers, options) {
    return this.#start(options, () => {
      if (!Array.isArray(providers)) throw new TypeError('providers must be an array of provider names');
      return this.#native.share(objectJson(activity, 'activity'), JSON.stringify(providers));
    });
  }

  /** Email and SMS content for the app to send, with URLs shortened by Engage: {email: {subject, body, urls:
   * {long: short}}, sms: {message, urls}}. */
  shareContent(activity, options) {
    return this.#work(options, () => this.#native.shareContent(objectJson(activity, 'activity')), parseJson);
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

if (typeof Symbol.dispose === 'symbol') {
  Client.prototype[Symbol.dispose] = function dispose() {
    this.close();
  };
}

module.exports = { Client };
