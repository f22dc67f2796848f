'use strict';
// libjump's JSON documents (results, state, events, error details) with camelCase keys, as the rest of the
// JavaScript API has them. Only libjump's own keys are renamed: a value that another party wrote keeps that
// party's keys, since the app looks them up by the names the server's schema gives them.

/** Keys whose value is someone else's data, copied as it is (jump.h documents them):
 * the user's record attributes, form field names, Engage's profile, Capture's own error answer, and record
 * paths used as keys. */
const DATA = new Set([
  'prereg_record', // record attributes made from the provider's profile
  'prereg_fields', // the registration form's fields
  'prereg_attributes',
  'invalid_fields', // form field name -> messages
  'update', // record attributes of an entity.update
  'attributes', // record attributes of a sync request
  'profile', // Engage's profile
  'server', // Capture's error answer, in its own words (code, error, error_description, ...)
  'renamed', // record path -> record path
]);
/** In a conflict, the three values of the attribute: all the user's data ("server" is one of them). */
const CONFLICT_DATA = new Set([...DATA, 'local', 'base']);

function camelCase(key) {
  return key.replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

/** A copy of a parsed libjump document with camelCase keys; the values of DATA keys are left as they are. */
function camelKeys(value, data = DATA) {
  if (Array.isArray(value)) return value.map((item) => camelKeys(item, data));
  if (value === null || typeof value !== 'object') return value;
  const copy = {};
  for (const [key, item] of Object.entries(value)) {
    copy[camelCase(key)] = data.has(key) ? item : camelKeys(item, key === 'conflicts' ? CONFLICT_DATA : DATA);
  }
  return copy;
}

module.exports = { camelKeys };
