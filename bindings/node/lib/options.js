'use strict';
// Checking the arguments and options of Client's methods, and turning the camelCase options into the JSON that
// libjump takes (jump.h names its options in snake_case). A wrong type is a TypeError before anything starts.

/** options.signal of a network call (undefined without one). */
function signalOf(options) {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { signal } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError('options.signal must be an AbortSignal');
  }
  return signal;
}

/** options itself, checked to be an object (or undefined: {}). */
function optionsOf(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  return options;
}

function checkString(value, name, { optional = false } = {}) {
  if (optional && (value === undefined || value === null)) return null;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string${optional ? ' or null' : ''}`);
  return value;
}

function checkBoolean(value, name) {
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean`);
  return value;
}

/** A whole number of seconds for libjump's int64 (a TypeError for another type, RangeError past 2^53). */
function checkInteger(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  if (!Number.isSafeInteger(value)) {
    const error = new RangeError(`${name} must be a whole number between -(2^53 - 1) and 2^53 - 1`);
    error.code = 'ERR_OUT_OF_RANGE';
    throw error;
  }
  return value;
}

/** A JSON object argument (record attributes, an activity) as its text. */
function objectJson(value, name) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${name} must be an object`);
  return JSON.stringify(value);
}

/** The options_json of the social calls (jump.h "jump_client_social_begin"): the camelCase options that are set,
 * named as libjump names them. allowed: which of input, forceReauth, link, mergeToken, redirectUri apply. */
function socialOptionsJson(options, allowed) {
  const names = { input: 'input', forceReauth: 'force_reauth', link: 'link', mergeToken: 'merge_token', redirectUri: 'redirect_uri' };
  const json = {};
  for (const key of allowed) {
    const value = options[key];
    if (value === undefined || value === null) continue;
    if (key === 'forceReauth' || key === 'link') checkBoolean(value, `options.${key}`);
    else checkString(value, `options.${key}`);
    json[names[key]] = value;
  }
  return Object.keys(json).length ? JSON.stringify(json) : null;
}

module.exports = { signalOf, optionsOf, checkString, checkBoolean, checkInteger, objectJson, socialOptionsJson };
