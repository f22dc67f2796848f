'use strict';
// A function of the app that libjump calls and waits for, on a thread of its own, during one call: identify's
// authenticate(externalUserId) and the loopback sign-in's openUrl(url). It runs on the JS thread (lib/host.js)
// and may return its answer or a Promise of it; meanwhile libjump's thread waits. A throw or a rejection ends the
// libjump call (JUMP_E_CANCELLED) and is kept, so that the Client rejects with the app's own error, as the
// Python binding raises it. The function gets {signal}, which aborts when the call is aborted or the client
// closes; libjump's thread is then answered at once, whatever the function still does.
const host = require('./host');

class AppCallback {
  /** The app's error, if its function threw or rejected. */
  error = undefined;
  #controller = new AbortController();
  #forward = null;
  #signal;

  /**
   * @param {(text: string, options: {signal: AbortSignal}) => unknown} fn the app's function
   * @param {(answer: unknown) => string | number | null} encode the answer for libjump (may throw a TypeError)
   * @param {AbortSignal | undefined} signal the call's
   */
  constructor(fn, encode, signal) {
    this.#signal = signal;
    if (signal !== undefined) {
      this.#forward = () => this.#controller.abort(signal.reason);
      signal.addEventListener('abort', this.#forward, { once: true });
    }
    const encodeOrFail = (answer) => {
      try {
        return encode(answer);
      } catch (error) {
        this.error ??= error;
        return host.CANCELLED;
      }
    };
    this.id = host.register((_kind, text, _data, token) => {
      const controller = this.#controller;
      if (controller.signal.aborted) return host.CANCELLED;
      let answer;
      try {
        answer = fn(text, { signal: controller.signal });
      } catch (error) {
        this.error ??= error;
        return host.CANCELLED;
      }
      if (!host.isThenable(answer)) return encodeOrFail(answer);
      let settled = false;
      const settle = (value) => {
        if (settled) return;
        settled = true;
        controller.signal.removeEventListener('abort', onAbort);
        host.answer(token, value);
      };
      const onAbort = () => settle(host.CANCELLED);
      controller.signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(answer).then(
        (value) => settle(encodeOrFail(value)),
        (error) => {
          this.error ??= error;
          settle(host.CANCELLED);
        },
      );
      return undefined; // answered later
    });
  }

  /** The client closes: libjump's waiting thread is answered JUMP_E_CANCELLED now. */
  cancel() {
    this.#controller.abort();
  }

  /** The libjump call is over (or never started): stop listening to its signal. */
  done() {
    if (this.#forward !== null) this.#signal.removeEventListener('abort', this.#forward);
    this.#forward = null;
  }
}

/** identify's answer for libjump: a sign-in token (a string, or {type: 'sign_in_token', signInToken}) or API-key
 * credentials ({type: 'api_key', apiKey, userId, environment, region}), as jump.h's JSON. */
function encodeCredential(answer) {
  if (typeof answer === 'string') return JSON.stringify({ type: 'sign_in_token', sign_in_token: answer });
  if (answer !== null && typeof answer === 'object') {
    if (answer.type === 'sign_in_token') return JSON.stringify({ type: answer.type, sign_in_token: answer.signInToken });
    if (answer.type === 'api_key') {
      return JSON.stringify({
        type: answer.type,
        api_key: answer.apiKey,
        user_id: answer.userId ?? null,
        environment: answer.environment,
        region: answer.region,
      });
    }
  }
  throw new TypeError(
    "authenticate must resolve to a sign-in token, {type: 'sign_in_token', signInToken} or " +
      "{type: 'api_key', apiKey, userId, environment, region}",
  );
}

/** openUrl's answer: whatever it returns, the URL is open. */
function encodeOpened() {
  return host.OK;
}

module.exports = { AppCallback, encodeCredential, encodeOpened };
