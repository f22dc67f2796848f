'use strict';
// libjump for Node.js: `const { Client } = require('jump')`. See index.d.ts for the API.
const addon = require('./lib/addon');
const { Client } = require('./lib/client');
const { UserRecord } = require('./lib/record');
const { fromNative, ...errors } = require('./lib/errors'); // fromNative is the addon's business only

module.exports = {
  Client,
  UserRecord,
  ...errors,
  /** The loaded libjump's version, e.g. "0.1.0". */
  libraryVersion: addon.libraryVersion,
};
