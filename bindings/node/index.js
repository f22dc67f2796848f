'use strict';
// libjump for Node.js: `const { Client } = require('jump')`. See index.d.ts for the API.
const addon = require('./lib/addon');
const { Client } = require('./lib/client');
const { UserRecord } = require('./lib/record');
const { AbortError } = require('./lib/abort-error');
/** The loaded libjump's version, e.g. "0.1.0". */
const libraryVersion = addon.libraryVersion;

// Written so that Node's CommonJS lexer finds every name: index.mjs re-exports them for `import`.
module.exports = {
  Client,
  UserRecord,
  AbortError,
  ...require('./lib/errors'),
  libraryVersion,
};
