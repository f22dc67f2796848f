'use strict';
// The signed-in user's record (jump_record): values go in and come out as plain JS values (JSON underneath),
// with the attribute names of the server's schema, untouched.
// Edits are local (and saved with the session) until client.sync().
const { camelKeys } = require('./camel-keys');
const { fromNative } = require('./from-native');

function call(fn) {
  try {
    return fn();
  } catch (error) {
    throw fromNative(error);
  }
}

class UserRecord {
  #native;

  /** @internal Made by Client#record. */
  constructor(native) {
    this.#native = native;
  }

  /** The value at path ("/" the whole record, "/primaryAddress/city", "/photos#12/value"). */
  get(path = '/') {
    return JSON.parse(call(() => this.#native.recordGet(path)));
  }

  /** Sets the attribute at path to value (any JSON value; an object sets the members it names). */
  set(path, value) {
    const json = JSON.stringify(value); // undefined for undefined, functions and symbols: no JSON value
    if (json === undefined) throw new TypeError('value must be a JSON value (use null or clear() to unset)');
    call(() => this.#native.recordSet(path, json));
  }

  /** Clears the value at path (null for a value or object, no elements for a plural). */
  clear(path) {
    call(() => this.#native.recordClear(path));
  }

  /** The unsynced changes: {changed: [paths], update: {attributes}, requests: [{endpoint, attributeName,
   * attributes}]}; the attributes are the record's, with their own names. */
  changes() {
    return camelKeys(JSON.parse(call(() => this.#native.recordChanges())));
  }

  /** Drops every unsynced change. */
  discardChanges() {
    call(() => this.#native.recordDiscardChanges());
  }
}

module.exports = { UserRecord };
