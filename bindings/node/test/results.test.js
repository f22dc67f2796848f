'use strict';
// What the calls resolve to, against a real emulator: libjump's keys in camelCase, as the errors' are (isNew,
// keptChanges, attributeName, statusName), and the user's own data (record attributes, JSON attribute values,
// Capture's answer) exactly as the server has it.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { once } = require('node:events');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config(overrides)));
}

/** Every key of every object in value that has an underscore: none may be left in libjump's own documents. */
function snakeKeys(value, at = '') {
  if (Array.isArray(value)) return value.flatMap((item, i) => snakeKeys(item, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [...(key.includes('_') ? [`${at}.${key}`] : []), ...snakeKeys(item, `${at}.${key}`)]);
}

/** A captureSchemaFile with the emulator's user schema, so that libjump knows /profiles#N/profile is a JSON value. */
async function schemaFile() {
  const response = await fetch(`${session.emu.url}/entityType`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'type_name=user&client_id=jump-default-client&client_secret=jump-default-secret',
  });
  assert.ok(response.ok, `/entityType -> ${response.status}`);
  const { schema } = await response.json();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jump-node-schema-')), 'schema.json');
  fs.writeFileSync(file, JSON.stringify({ attr_defs: schema.attr_defs }));
  return file;
}

test('sign-in results, state, changes and events have camelCase keys (isNew, keptChanges, ...)', async () => {
  const client = newClient();
  const events = [];
  client.on('event', (event) => events.push(event));
  const email = uniqueEmail();
  const registered = await client.registerTraditional({ email, displayName: 'Ada L' }, PASSWORD);
  assert.equal(registered.isNew, true);
  assert.deepEqual(snakeKeys(registered), []);

  client.record.set('/aboutMe', 'kept over a sign-in');
  const changes = client.record.changes();
  assert.deepEqual(changes.requests, [{ endpoint: 'entity.update', attributeName: null, attributes: { aboutMe: 'kept over a sign-in' } }]);

  const signedIn = await client.signIn(email, PASSWORD);
  assert.deepEqual(Object.keys(signedIn).sort(), ['authorizationCode', 'isNew', 'keptChanges', 'uuid']);
  assert.equal(signedIn.isNew, false);
  assert.deepEqual(signedIn.keptChanges, ['/aboutMe']);
  assert.equal(signedIn.authorizationCode, null);

  const state = client.state();
  assert.equal(state.signedIn, true);
  assert.equal(state.unsyncedChanges, true);
  assert.equal(typeof state.accessTokenExpiresAt, 'number');
  assert.equal(state.restoreError, null);
  assert.deepEqual(snakeKeys(state), []);

  const synced = once(client, 'record_synced');
  assert.deepEqual(await client.sync(), { changed: ['/aboutMe'], requests: 1, renamed: {} });
  await synced;
  assert.equal(client.state().unsyncedChanges, false);
  const signedInEvents = events.filter((event) => event.event === 'signed_in');
  assert.deepEqual(signedInEvents.map((event) => event.isNew), [true, false]);
  assert.deepEqual(snakeKeys(events), []);
});

test("a JSON attribute's own keys (the user's data) come back as the server has them, in results and errors", async () => {
  const client = newClient({
    captureSchemaFile: await schemaFile(),
    engageAppId: 'jump-default-engage',
    engageDomain: session.emu.url,
    captureEnableThinRegistration: true,
  });
  const social = await client.socialSignInNative('facebook', JSON.stringify({ email: uniqueEmail('data'), display_name: 'D' }));
  assert.equal(social.outcome, 'registered');
  assert.equal(social.isNew, true);
  assert.deepEqual(snakeKeys(social), []);

  const [element] = client.record.get('/profiles');
  const profilePath = `/profiles#${element.id}/profile`;
  const profile = { favorite_color: 'teal', pets: [{ pet_name: 'Rex', is_good: true }] };
  client.record.set(profilePath, profile);
  const [request] = client.record.changes().requests;
  assert.equal(request.attributeName, `/profiles#${element.id}`);
  // A json attribute is sent whole (Capture replaces its value): the members set, and Engage's own beside them.
  const whole = client.record.get(profilePath);
  assert.deepEqual(request.attributes.profile, whole);
  await client.sync();
  assert.deepEqual(client.record.get(profilePath), whole);
  const { user } = await session.emu.user(social.uuid);
  assert.deepEqual(user.profiles[0].profile, whole);
  assert.equal(user.profiles[0].profile.favorite_color, 'teal');

  // A refused sync: libjump's keys camelCase (statusName, the pending paths), Capture's answer as Capture wrote it.
  client.record.set(profilePath, { favorite_color: 'red' });
  await session.emu.admin('POST', '/emulator/faults', { kind: 'capture_error', path: '/entity.update', code: 330 });
  const error = await client.sync().catch((e) => e);
  assert.ok(error instanceof jump.ConflictError, `got ${error}`);
  assert.equal(error.code, 'JUMP_E_CONFLICT');
  assert.equal(error.detail.statusName, 'JUMP_E_CONFLICT');
  assert.ok(error.detail.pending.includes(profilePath), JSON.stringify(error.detail));
  assert.equal(error.server.error, 'timestamp_mismatch');
  assert.equal(error.server.error_description, 'injected fault');
  assert.deepEqual(error.detail.server, error.server);
});
