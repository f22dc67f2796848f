'use strict';
// libjump's JSON documents (results, state, events, error details) with camelCase keys, as the rest of the
// JavaScript API has them. Only libjump's own keys are renamed: a value that another party wrote keeps that
// party's keys, since the app looks them up by the names the server's schema gives them.

/** Keys whose value is someone else's data, copied as it is (jump.h documents them):
 * the user's record attributes, form field names, Engage's profile and provider properties, Capture's own
 * error answer, record paths and URLs used as keys. */
const DATA = new Set([
  'prereg_record', // record attributes made from the provider's profile
  'prereg_fields', // the registration form's fields
  'prereg_attributes',
  'invalid_fields', // form field name -> messages
  'update', // record attributes of an entity.update
  'attributes', // record attributes of a sync request
  'profile', // Engage's profile
  'properties', // a sharing provider's social_sharing_properties, Engage's
  'server', // Capture's error answer, in its own words (code, error, error_description, ...)
  'renamed', // record path -> record path
  'urls', // share content: long URL -> short URL
]);
/** Keys whose value is an object keyed by names that are not libjump's (provider names such as "live_id"),
 * each value a libjump document: the keys stay, the values are converted. */
const KEYED = new Set([
  'results', // share: provider -> {ok, method, error_class, ...}
]);
/** In a conflict, the three values of the attribute: all the user's data ("server" is one of them). */
const CONFLICT_DATA = new Set([...DATA, 'local', 'base']);

/** key -> camelCase key: libjump's documents repeat a few dozen keys, so each is converted once. */
const converted = new Map();

function camelCase(key) {
  let camel = converted.get(key);
  if (camel === undefined) {
    camel = key.replace(/_([a-z0-9])/g, (_, letter) => letter.toUpperCase());
    if (converted.size < 4096) converted.set(key, camel); // bounded: keys of unknown documents could be anything
  }
  return camel;
}

/** A copy of a parsed libjump document with camelCase keys; the values of DATA keys are left as they are. */
function camelKeys(value, data = DATA) {
  if (Array.isArray(value)) return value.map((item) => camelKeys(item, data));
  if (value === null || typeof value !== 'object') return value;
  const copy = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (data.has(key)) copy[camelCase(key)] = item;
    else if (KEYED.has(key) && item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const keyed = {};
      for (const name of Object.keys(item)) keyed[name] = camelKeys(item[name]);
      copy[camelCase(key)] = keyed;
    } else copy[camelCase(key)] = camelKeys(item, key === 'conflicts' ? CONFLICT_DATA : DATA);
  }
  return copy;
}

/** A libjump JSON document as the app gets it. */
const parseJson = (text) => camelKeys(JSON.parse(text));

module.exports = { camelKeys, parseJson };
