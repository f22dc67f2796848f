'use strict';
// What belongs to the library rather than to a client: its versions, status descriptions, decoding a sign-in
// token, and the settings a config would give.
const addon = require('./addon');
const { camelKeys } = require('./camel-keys');
const { call } = require('./from-native');

/** The loaded libjump's version string, e.g. "0.1.0". */
function version() {
  return addon.libraryVersion;
}

/** The loaded libjump's version as (major << 16) | (minor << 8) | patch. */
function versionNumber() {
  return addon.versionNumber();
}

/** The loaded libjump's ABI version (the addon refuses to load a library whose ABI is not ABI_VERSION). */
function abiVersion() {
  return addon.abiVersion();
}

/** libjump's description of a status code (an unknown code included). */
function statusStr(status) {
  return addon.statusStr(status);
}

/** What a sign-in token says, without using it: {userId, teamId, environment, region, expiresAt}.
 * InvalidArgumentError saying what is wrong for a malformed one. No client, no network. */
function decodeSignInToken(signInToken) {
  return camelKeys(JSON.parse(call(() => addon.decodeSignInToken(signInToken))));
}

/** The settings a Client made from config would have, defaults included (jump_config keys, as given).
 * InvalidArgumentError for an unknown key or a wrong type. */
function effectiveConfig(config) {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new TypeError('config must be an object of jump_config keys');
  }
  return JSON.parse(call(() => addon.effectiveConfig(JSON.stringify(config))));
}

module.exports = { version, versionNumber, abiVersion, statusStr, decodeSignInToken, effectiveConfig, ABI_VERSION: addon.ABI_VERSION };
