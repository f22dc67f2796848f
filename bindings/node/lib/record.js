'use strict';
// The signed-in user's record (jump_record): values go in and come out as plain JS values (JSON underneath),
// with the attribute names of the server's schema, untouched. Paths are libjump's: "/" (the whole record),
// "/aboutMe", "/primaryAddress/city", "/photos#12/value" (a plural element by id; elements appended here have
// negative ids, "/photos#-1", until a sync gives them the server's).
// Edits are local (and saved with the session) until client.sync().
const { camelKeys } = require('./camel-keys');
const { call } = require('./from-native');

/** value as JSON text, or a TypeError for something JSON cannot hold. */
function json(value, name) {
  const text = JSON.stringify(value); // undefined for undefined, functions and symbols: no JSON value
  if (text === undefined) throw new TypeError(`${name} must be a JSON value (use null or clear() to unset)`);
  return text;
}

class UserRecord {
  #native;

  /** @internal Made by Client#record. */
  constructor(native) {
    this.#native = native;
  }

  /** The value at path ("/" the whole record, "/primaryAddress/city", "/photos#12/value").
   * NotFoundError when the path does not exist. */
  get(path = '/') {
    return JSON.parse(call(() => this.#native.recordGet(path)));
  }

  /** The string at path (null for a JSON null); InvalidArgumentError for another type. */
  getString(path) {
    return call(() => this.#native.recordGetString(path));
  }

  /** The integer at path (a JSON integer, or a whole real); NotFoundError for null, InvalidArgumentError for
   * another type, RangeError past Number.MAX_SAFE_INTEGER. */
  getInt(path) {
    const value = call(() => this.#native.recordGetInt(path));
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      const error = new RangeError(`the integer at ${path} does not fit in a number without losing digits`);
      error.code = 'ERR_OUT_OF_RANGE';
      throw error;
    }
    return Number(value);
  }

  /** The number at path; NotFoundError for null, InvalidArgumentError for another type. */
  getNumber(path) {
    return call(() => this.#native.recordGetNumber(path));
  }

  /** The boolean at path; NotFoundError for null, InvalidArgumentError for another type. */
  getBoolean(path) {
    return call(() => this.#native.recordGetBoolean(path));
  }

  /** Sets the attribute at path to value (any JSON value; an object sets the members it names). Reserved,
   * unknown and plural attributes are refused with InvalidArgumentError naming the path. */
  set(path, value) {
    const text = json(value, 'value');
    call(() => this.#native.recordSet(path, text));
  }

  /** Sets the attribute at path to a string (null sets JSON null). */
  setString(path, value) {
    if (value !== null && typeof value !== 'string') throw new TypeError('value must be a string or null');
    call(() => this.#native.recordSetString(path, value));
  }

  /** Clears the value at path (null for a value or object, no elements for a plural). */
  clear(path) {
    call(() => this.#native.recordClear(path));
  }

  /** Appends element (an object, without "id") to the plural at pluralPath; returns the new element's path,
   * e.g. "/photos#-1". */
  append(pluralPath, element) {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      throw new TypeError('element must be an object');
    }
    const text = json(element, 'element');
    return call(() => this.#native.recordAppend(pluralPath, text));
  }

  /** Removes the plural element at elementPath ("/photos#12"). */
  remove(elementPath) {
    call(() => this.#native.recordRemove(elementPath));
  }

  /** Replaces every element of the plural at pluralPath with elements (objects; any "id" is ignored: they are
   * new elements). */
  replacePlural(pluralPath, elements) {
    if (!Array.isArray(elements)) throw new TypeError('elements must be an array of objects');
    const text = json(elements, 'elements');
    call(() => this.#native.recordReplacePlural(pluralPath, text));
  }

  /** The number of elements of the plural at pluralPath. */
  elementCount(pluralPath) {
    return call(() => this.#native.recordElementCount(pluralPath));
  }

  /** The paths of the plural's elements, in order: ["/photos#12", "/photos#-1"]. */
  elementPaths(pluralPath) {
    return JSON.parse(call(() => this.#native.recordElementPaths(pluralPath)));
  }

  /** Drops the unsynced edits at path and below, back to the server's last value (after a ConflictError: take
   * the server's value). */
  revert(path) {
    call(() => this.#native.recordRevert(path));
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
