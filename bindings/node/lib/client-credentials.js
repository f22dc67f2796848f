'use strict';
// Client's sign-in tokens, API keys, identifyExternalUser, credentials and authorized requests: methods that
// client.js mixes into Client.prototype. They reach the client's private plumbing only through the functions
// client.js hands them (native, call, start, work, withCallback: its #native, #call, #start, ...).
const { encodeCredential } = require('./app-callback');
const { parseJson } = require('./camel-keys');
const { checkBoolean, checkInteger, checkString, optionsOf } = require('./options');

const FORCE_REFRESH = 1; // jump.h's JUMP_CREDENTIALS_FORCE_REFRESH

module.exports = ({ native, call, start, work, withCallback }) => class CredentialMethods {
  // ---- sign-in tokens, API keys, identify ---------------------------------------------------------------

  /** Exchanges a sign-in token (from the app's backend) for an access + refresh session.
   * Resolves to {userId, changed, migrated}; AlreadySignedInError (detail.mismatch) for another user. */
  signInWithToken(signInToken, options) {
    return start(this, options, () => native(this).signInWithToken(signInToken));
  }

  /** API-key mode: requests carry apiKey in the apiKeyHeader header. userId may be null (configured, no user);
   * environment "production" (default), "sandbox", "dev" or "local"; region "us" (default) or "eu". */
  useApiKey(apiKey, options) {
    const { userId = null, environment = 'production', region = 'us' } = optionsOf(options);
    checkString(userId, 'options.userId', { optional: true });
    call(this, () => native(this).useApiKey(apiKey, userId, environment, region));
  }

  /** The sign-in status: {configured, signedIn, useApiKey, useSignInToken, pendingReauthentication, userId,
   * teamId, environment, region, externalUserId, restoreError}. Changes are "status_changed" events. */
  status() {
    return parseJson(call(this, () => native(this).status()));
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
    return withCallback(this, options, authenticate, encodeCredential, (id, callback) =>
      work(this, options, () => native(this).identifyExternalUser(checkString(externalUserId, 'externalUserId'), id),
        parseJson, callback));
  }

  // ---- credentials and authorized requests --------------------------------------------------------------

  /** The credential request() would send: {kind: 'capture'|'sign_in_token'|'api_key', accessToken (a secret;
   * the API key in API-key mode), expiresAt, expiresIn, refreshed}. Refreshed first (one request for all
   * callers) only when it lasts minTtl seconds or less, or with options.force; otherwise no request is made. */
  credentials(minTtl = 0, options = undefined) {
    return start(this, options, () => {
      const { force } = optionsOf(options);
      checkBoolean(force, 'options.force');
      return native(this).credentials(checkInteger(minTtl, 'minTtl'), force ? FORCE_REFRESH : 0);
    });
  }

  /** Whether the credential held now lasts more than minTtl seconds (an API key always does). Memory only: no
   * network, never waits for a refresh. False when signed out, closed, or for a negative or non-integer minTtl. */
  hasValidCredentials(minTtl = 0) {
    if (!Number.isSafeInteger(minTtl)) return false;
    return native(this).hasValidCredentials(minTtl);
  }

  /** A valid access token (refreshed first when it expires within tokenRefreshMarginSeconds). A secret. */
  accessToken(options) {
    return work(this, options, () => native(this).accessToken(), (token) => token);
  }

  /** Refreshes the access token now (concurrent refreshes share one request). */
  refreshAccessToken(options) {
    return work(this, options, () => native(this).refreshAccessToken(), () => undefined);
  }

  /**
   * Sends method to url with the client's credential (the sign-in-token session's bearer token, else the API
   * key, else the Capture access token): url relative to that credential's server ("/v2/...") or absolute on
   * it. options.headers: extra headers; options.body: a string or a Uint8Array (Buffer). Expiring tokens are
   * refreshed first; a 401 refreshes once and replays once. Resolves to {status, headers: [[name, value]],
   * body} (body null and bodyBase64 set when it is not UTF-8); an HTTP error status is not a rejection.
   */
  request(method, url, options) {
    return start(this, options, () => {
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
      return native(this).request(method, url, headersJson, body ?? null);
    });
  }

  /** Web login: takes the token a login page left in its cookies (options.cookies: a Cookie header or
   * Set-Cookie lines) or its title (options.title, "oauth_token=..."), for pageUrl's origin; request() then sends
   * it there. Returns the token (a secret). NotFoundError when neither holds it. */
  useWebLogin(pageUrl, options) {
    const { cookies = null, title = null } = optionsOf(options);
    return call(this, () => native(this).useWebLogin(pageUrl, cookies, title));
  }
};
