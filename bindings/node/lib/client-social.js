'use strict';
// Client's social sign-in (Engage), social registration, merge, linking and sharing: methods that client.js
// mixes into Client.prototype. They reach the client's private plumbing only through the functions client.js
// hands them (native, call, start, work, withCallback: its #native, #call, #start, ...).
const { encodeOpened } = require('./app-callback');
const { parseJson } = require('./camel-keys');
const { checkInteger, checkString, objectJson, optionsOf, socialOptionsJson } = require('./options');

module.exports = ({ native, call, start, work, withCallback }) => class SocialMethods {
  // ---- social sign-in (Engage), registration, merge, linking, sharing ------------------------------------

  /** Fetches the Engage configuration (If-None-Match with the cached ETag): {changed, fromCache}. */
  loadEngageConfig(options) {
    return work(this, options, () => native(this).loadEngageConfig(), parseJson);
  }

  /** The providers: {signIn: [{name, friendlyName, requiresInput, inputPrompt, inputLabel, custom}], sharing:
   * [{name, friendlyName, properties}], hideTagline}; loads the configuration when needed. */
  providers(options) {
    return work(this, options, () => native(this).providers(), parseJson);
  }

  /** Begins a browser sign-in: {url, state, completion: 'device'|'redirect', completionPrefix}. Open url in the
   * system browser; pass the URL it ends on (starting with completionPrefix) to socialComplete. Options: input
   * (for providers with requiresInput), forceReauth, link (add the identity to the signed-in user), mergeToken
   * (from MergeRequiredError), redirectUri. */
  socialBegin(provider, options) {
    return work(this, options, () => {
      const json = socialOptionsJson(optionsOf(options), ['input', 'forceReauth', 'link', 'mergeToken', 'redirectUri']);
      return native(this).socialBegin(provider, json);
    }, parseJson);
  }

  /** Completes a begun sign-in with the URL the browser ended on: the social outcome (see socialSignInNative).
   * A URL that completes no sign-in begun here is InvalidArgumentError (detail.reason) and changes nothing. */
  socialComplete(url, options) {
    return start(this, options, () => native(this).socialComplete(url));
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
    return withCallback(this, options, openUrl, encodeOpened, (id, callback) =>
      start(this, options, () => {
        const all = optionsOf(options);
        const timeout = all.timeoutMs === undefined ? 0 : checkInteger(all.timeoutMs, 'options.timeoutMs');
        const json = socialOptionsJson(all, ['input', 'forceReauth', 'link', 'mergeToken']);
        return native(this).socialSignInLoopback(checkString(provider, 'provider'), json, id, timeout);
      }, callback));
  }

  /** Signs in with a provider SDK's own access token (tokenSecret: the OAuth1 secret, twitter). options.mergeToken
   * (from MergeRequiredError: sign in with the existing provider and merge) and options.link (add the identity
   * to the signed-in user). Resolves to the social outcome {outcome, provider, isNew, uuid, merged, ...};
   * RegistrationRequiredError and MergeRequiredError carry what the next step needs. */
  socialSignInNative(provider, token, options) {
    return start(this, options, () => {
      const all = optionsOf(options);
      const secret = checkString(all.tokenSecret, 'options.tokenSecret', { optional: true });
      return native(this).socialSignInNative(provider, token, secret, socialOptionsJson(all, ['mergeToken', 'link']));
    });
  }

  /** Completes a two-step social registration (after RegistrationRequiredError) with record attributes, e.g.
   * error.preregRecord completed by the user. Resolves to {isNew: true, uuid, ...}. */
  registerSocial(socialRegistrationToken, attributes, options) {
    return start(this, options, () =>
      native(this).registerSocial(socialRegistrationToken, objectJson(attributes, 'attributes')));
  }

  /** signIn that also merges mergeToken's identity (MergeRequiredError with existingProvider "capture") into
   * the account. Resolves as signIn plus merged: true. */
  signInMerge(user, password, mergeToken, options) {
    return start(this, options, () => native(this).signInMerge(user, password, mergeToken));
  }

  /** The signed-in user's linked identities: [{identifier, domain, provider, displayName, email, path}]. */
  linkedProfiles() {
    return parseJson(call(this, () => native(this).linkedProfiles()));
  }

  /** Unlinks an identity, then fetches the record. The last identity of an account without a password is
   * refused first: InvalidArgumentError with reason "last_identity". */
  unlinkAccount(identifier, options) {
    return start(this, options, () => native(this).unlinkAccount(identifier));
  }

  /** Engage-only mode: the app backend URL the Engage token is POSTed to after each social sign-in (its answer
   * is the outcome's tokenUrlResponse); null removes it. */
  setTokenUrl(url) {
    call(this, () => native(this).setTokenUrl(url));
  }

  /** Shares activity ({action, url, title, description, user_generated_content, action_links, media,
   * properties}: Engage's activity, with Engage's names) to each sharing provider the user signed in with
   * through the browser. Resolves to {results: {<provider>: {ok: true, method}}}; ServerError (err.results)
   * when any provider failed. */
  share(activity, providers, options) {
    return start(this, options, () => {
      if (!Array.isArray(providers)) throw new TypeError('providers must be an array of provider names');
      return native(this).share(objectJson(activity, 'activity'), JSON.stringify(providers));
    });
  }

  /** Email and SMS content for the app to send, with URLs shortened by Engage: {email: {subject, body, urls:
   * {long: short}}, sms: {message, urls}}. */
  shareContent(activity, options) {
    return work(this, options, () => native(this).shareContent(objectJson(activity, 'activity')), parseJson);
  }
};
