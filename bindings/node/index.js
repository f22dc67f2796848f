'use strict';
// libjump for Node.js: `const { Client } = require('libjump')`. See index.d.ts for the API.
const addon = require('./lib/addon');
const { Client } = require('./lib/client');
const { UserRecord } = require('./lib/record');
const { AbortError } = require('./lib/abort-error');
const { setLogCallback } = require('./lib/log');
const { ABI_VERSION, version, versionNumber, abiVersion, statusStr, decodeSignInToken, effectiveConfig } = require('./lib/library');
/** The loaded libjump's version, e.g. "0.1.0". */
const libraryVersion = addon.libraryVersion;

// Written so that Node's CommonJS lexer finds every name (shorthand properties and spreads only): index.mjs
// re-exports them for `import`.
module.exports = {
  Client,
  UserRecord,
  AbortError,
  ...require('./lib/errors'),
  libraryVersion,
  ABI_VERSION,
  version,
  versionNumber,
  abiVersion,
  statusStr,
  decodeSignInToken,
  effectiveConfig,
  setLogCallback,
};
