'use strict';
// The record model against the emulator: plurals (append, remove, replacePlural, elementCount, elementPaths),
// typed getters, setString, revert and discardChanges, the schema's local refusals, and a conflict taken back.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');
const { clearCounters, counters } = require('./helpers/token-api');

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config({ storageDirectory: ':memory:', ...overrides })));
}

/** A user made with plural elements (registration makes none), signed in through client; its uuid. */
async function signedInWithPhotos(client, photos = ['a.png', 'b.png']) {
  const email = uniqueEmail('rec');
  const record = {
    givenName: 'Ada',
    photos: photos.map((value) => ({ value })),
    profiles: [{ identifier: `id-${email}`, domain: 'example.com', friends: [{ displayName: 'Bo' }] }],
  };
  await session.emu.admin('POST', '/emulator/users', { email, password: PASSWORD, record });
  await client.signIn(email, PASSWORD);
  await clearCounters(session.emu);
  return client.state().uuid;
}

const entityCalls = async () =>
  Object.fromEntries(Object.entries(await counters(session.emu)).filter(([name]) => name.startsWith('POST /entity.')));
const stored = async (uuid) => (await session.emu.user(uuid)).user;

test('plurals: elementCount and elementPaths; typed getters with their errors', async () => {
  const client = newClient();
  await signedInWithPhotos(client);
  const record = client.record;
  assert.equal(record.elementCount('/photos'), 2);
  const paths = record.elementPaths('/photos');
  assert.deepEqual(paths.map((p) => record.get(`${p}/value`)), ['a.png', 'b.png']);
  assert.ok(paths.every((p) => /^\/photos#\d+$/.test(p)));
  assert.equal(record.getString('/givenName'), 'Ada');
  assert.equal(record.getString('/aboutMe'), null); // JSON null
  assert.throws(() => record.getInt('/aboutMe'), jump.NotFoundError);
  assert.throws(() => record.getBoolean('/givenName'), jump.InvalidArgumentError);
  assert.throws(() => record.getNumber('/givenName'), jump.InvalidArgumentError);
  assert.throws(() => record.get('/nope'), jump.NotFoundError);
  assert.throws(() => record.elementCount('/givenName'), jump.JumpError);
  assert.throws(() => record.elementPaths(7), TypeError);
});

test('typed getters read inside a json attribute; an integer past 2^53 is a RangeError, not a wrong number', async () => {
  const email = uniqueEmail('typed');
  // JSON text, not JSON.stringify: 2^53 + 1 has no exact JavaScript number
  const body = `{"email":"${email}","password":"${PASSWORD}","record":{"profiles":[{"identifier":"id-${email}",` +
    '"domain":"example.com","profile":{"age":42,"score":1.5,"optIn":true,"big":9007199254740993}}]}}';
  const made = await fetch(`${session.emu.url}/emulator/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.ok(made.ok, await made.text());
  const client = newClient();
  await client.signIn(email, PASSWORD);
  const profile = `${client.record.elementPaths('/profiles')[0]}/profile`;
  assert.equal(client.record.getInt(`${profile}/age`), 42);
  assert.equal(client.record.getNumber(`${profile}/age`), 42);
  assert.equal(client.record.getNumber(`${profile}/score`), 1.5);
  assert.equal(client.record.getBoolean(`${profile}/optIn`), true);
  assert.throws(() => client.record.getInt(`${profile}/score`), jump.InvalidArgumentError); // not integral
  assert.throws(() => client.record.getInt(`${profile}/big`), { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' });
});

test('append, setString, typed reads; the sync renames the new element, and later edits use the new path', async () => {
  const client = newClient();
  const uuid = await signedInWithPhotos(client);
  const record = client.record;
  const local = record.append('/photos', { value: 'new.png' });
  assert.equal(local, '/photos#-1');
  record.setString(`${local}/type`, 'extra');
  record.setString('/aboutMe', 'typed');
  assert.equal(record.getString(`${local}/type`), 'extra');
  assert.equal(record.elementCount('/photos'), 3);
  const result = await client.sync();
  const renamed = result.renamed[local];
  assert.match(renamed, /^\/photos#\d+$/);
  assert.equal(record.get(`${renamed}/value`), 'new.png');
  record.set(`${renamed}/value`, 'renamed.png');
  await clearCounters(session.emu);
  await client.sync();
  assert.deepEqual(await entityCalls(), { 'POST /entity.update': 1 });
  const photos = (await stored(uuid)).photos;
  assert.equal(photos.length, 3);
  assert.equal(photos.find((p) => `/photos#${p.id}` === renamed).value, 'renamed.png');
  record.setString('/aboutMe', null);
  assert.equal(record.getString('/aboutMe'), null);
  assert.throws(() => record.setString('/aboutMe', 5), TypeError);
  assert.throws(() => record.append('/photos', [{ value: 'x' }]), TypeError);
});

test('remove, a nested plural, replacePlural: the fewest requests, the server\'s ids', async () => {
  const client = newClient();
  const uuid = await signedInWithPhotos(client);
  const record = client.record;
  record.remove(record.elementPaths('/photos')[0]);
  const profile = record.elementPaths('/profiles')[0];
  record.append(`${profile}/friends`, { displayName: 'Cy' });
  await client.sync();
  assert.deepEqual(await entityCalls(), { 'POST /entity.delete': 1, 'POST /entity.update': 1 });
  let user = await stored(uuid);
  assert.deepEqual(user.photos.map((p) => p.value), ['b.png']);
  assert.deepEqual(user.profiles[0].friends.map((f) => f.displayName), ['Bo', 'Cy']);

  record.replacePlural('/photos', [{ value: 'x.png', id: 999 }, { value: 'y.png' }]);
  assert.equal(record.elementCount('/photos'), 2);
  await clearCounters(session.emu);
  await client.sync();
  assert.deepEqual(await entityCalls(), { 'POST /entity.replace': 1 });
  user = await stored(uuid);
  assert.deepEqual(user.photos.map((p) => p.value), ['x.png', 'y.png']);
  assert.ok(user.photos.every((p) => p.id !== 999));
  assert.throws(() => record.replacePlural('/photos', { value: 'z' }), TypeError);
});

test('revert drops the edits at a path, discardChanges all of them', async () => {
  const client = newClient();
  await signedInWithPhotos(client);
  const record = client.record;
  record.set('/aboutMe', 'draft');
  record.set('/givenName', 'Changed');
  record.append('/photos', { value: 'c.png' });
  record.revert('/aboutMe');
  assert.equal(record.get('/aboutMe'), null);
  assert.deepEqual(record.changes().changed.sort(), ['/givenName', '/photos']);
  record.revert('/photos');
  assert.equal(record.elementCount('/photos'), 2);
  record.discardChanges();
  assert.equal(record.get('/givenName'), 'Ada');
  assert.deepEqual(record.changes().changed, []);
  assert.equal(client.state().unsyncedChanges, false);
});

test('loadSchema: edits are then refused locally, naming the path; it needs a signed-in user', async () => {
  const signedOut = newClient();
  await clearCounters(session.emu);
  const refused = await signedOut.loadSchema().catch((e) => e);
  assert.ok(refused instanceof jump.NotSignedInError, `${refused}`);
  assert.match(refused.message, /captureSchemaFile/);
  assert.deepEqual(await counters(session.emu), {});
  await signedOut.loadFlow(); // the flow needs no session
  assert.equal(typeof signedOut.state().flowVersion, 'string');

  const client = newClient();
  await signedInWithPhotos(client);
  await client.loadSchema();
  await clearCounters(session.emu);
  for (const [path, value] of [['/birthday', 'yesterday'], ['/aboutMe', 5], ['/uuid', 'x'], ['/nope', 1]]) {
    const error = (() => {
      try {
        client.record.set(path, value);
        return null;
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof jump.InvalidArgumentError, `${path}: ${error}`);
    assert.equal(error.argument, path);
  }
  assert.throws(() => client.record.append('/photos', { colour: 'red' }), jump.InvalidArgumentError);
  assert.deepEqual(client.record.changes().changed, []);
  assert.deepEqual(await counters(session.emu), {});
});

test('a fetch that meets a conflict keeps the local value; revert takes the server\'s', async () => {
  const mine = newClient();
  const theirs = newClient();
  await signedInWithPhotos(mine);
  await theirs.signIn(mine.state().email, PASSWORD);
  theirs.record.set('/aboutMe', 'theirs');
  theirs.record.set('/givenName', 'Theirs');
  await theirs.sync();
  mine.record.set('/aboutMe', 'mine');
  const conflict = await mine.fetchRecord().catch((e) => e);
  assert.ok(conflict instanceof jump.ConflictError, `${conflict}`);
  assert.deepEqual(conflict.conflicts.map((c) => c.path), ['/aboutMe']);
  assert.equal(conflict.conflicts[0].server, 'theirs');
  assert.equal(mine.record.get('/aboutMe'), 'mine');
  assert.equal(mine.record.get('/givenName'), 'Theirs');
  mine.record.revert('/aboutMe');
  assert.equal(mine.record.get('/aboutMe'), 'theirs');
  assert.deepEqual(mine.record.changes().changed, []);
});
