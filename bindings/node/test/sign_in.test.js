'use strict';
// Sign-in, registration, errors per status, state, record edits and sync, events: against a real emulator.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const jump = require('..');
const { Emulator, PASSWORD, registerUser, uniqueEmail, useEmulator } = require('./emulator');

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config(overrides)));
}


test('signIn resolves with the user and the client is signed in', async () => {
  const { email, uuid } = await registerUser(newClient());
  const client = newClient();
  assert.equal(client.isSignedIn, false);
  const result = await client.signIn(email, PASSWORD);
  assert.equal(result.uuid, uuid);
  assert.equal(result.isNew, false);
  assert.equal(client.isSignedIn, true);
  const state = client.state();
  assert.equal(state.signedIn, true);
  assert.equal(state.uuid, uuid);
  assert.equal(state.email, email);
});

test('a wrong password rejects with BadCredentialsError carrying the status', async () => {
  const { email } = await registerUser(newClient());
  const client = newClient();
  const error = await client.signIn(email, 'not the password').then(
    () => assert.fail('signed in with a wrong password'),
    (e) => e,
  );
  assert.ok(error instanceof jump.BadCredentialsError);
  assert.ok(error instanceof jump.JumpError);
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'BadCredentialsError');
  assert.equal(error.status, -7);
  assert.equal(error.statusName, 'JUMP_E_BAD_CREDENTIALS');
  assert.equal(error.detail.status, -7);
  assert.ok(!error.message.includes('not the password'), 'the password leaked into the message');
  assert.equal(client.isSignedIn, false);
});

test("a wrong password's err.code is 'JUMP_E_BAD_CREDENTIALS', so switch (err.code) finds it", async () => {
  const { email } = await registerUser(newClient());
  const error = await newClient().signIn(email, 'not the password').catch((e) => e);
  let handled;
  switch (error.code) {
    case 'JUMP_E_BAD_CREDENTIALS':
      handled = 'ask for the password again';
      break;
    default:
      handled = `unexpected ${error.code}`;
  }
  assert.equal(handled, 'ask for the password again');
  assert.equal(error.statusName, error.code);
  assert.equal(error.status, -7);
});

test('registration validation rejects with ValidationError and invalidFields', async () => {
  const client = newClient();
  const error = await client.registerTraditional({ email: 'not-an-email', displayName: 'X' }, 'short').catch((e) => e);
  assert.ok(error instanceof jump.ValidationError, `got ${error}`);
  assert.equal(error.status, -10);
  assert.equal(error.statusName, 'JUMP_E_VALIDATION');
  assert.ok('emailAddress' in error.invalidFields);
  assert.ok('newPassword' in error.invalidFields);
  for (const messages of Object.values(error.invalidFields)) {
    assert.ok(Array.isArray(messages) && messages.length > 0 && messages.every((m) => typeof m === 'string'));
  }
  assert.deepEqual(error.detail.invalidFields, error.invalidFields);
  assert.equal(client.isSignedIn, false);
});

test('registering a taken email rejects with a JumpError subclass, not a crash', async () => {
  const { email } = await registerUser(newClient());
  const error = await newClient()
    .registerTraditional({ email, displayName: 'Twin' }, PASSWORD)
    .catch((e) => e);
  assert.ok(error instanceof jump.JumpError, `got ${error}`);
  assert.ok(error.status < 0);
});

test('record get/set, then sync sends the edit to the server', async () => {
  const client = newClient();
  const { uuid } = await registerUser(client);
  assert.equal(client.record.get('/givenName'), 'Ada');
  client.record.set('/aboutMe', 'edited from node');
  assert.equal(client.record.get('/aboutMe'), 'edited from node');
  assert.deepEqual(client.record.changes().changed, ['/aboutMe']);
  assert.equal(client.state().unsyncedChanges, true);
  const result = await client.sync();
  assert.deepEqual(result.changed, ['/aboutMe']);
  assert.equal(client.state().unsyncedChanges, false);
  const stored = await session.emu.user(uuid);
  assert.equal(stored.user.aboutMe, 'edited from node');
  assert.equal(typeof client.record.get('/').uuid, 'string');
});

test('record errors are JumpErrors: an unknown attribute is InvalidArgumentError, a bad value a TypeError', async () => {
  const client = newClient();
  await registerUser(client);
  assert.throws(() => client.record.set('/noSuchAttribute', 'x'), jump.InvalidArgumentError);
  assert.throws(() => client.record.get('/noSuch/path'), (e) => e instanceof jump.JumpError && e.status < 0);
  assert.throws(() => client.record.set('/aboutMe', undefined), TypeError);
  assert.throws(() => client.record.set('/aboutMe', () => 1), TypeError);
});

test('record calls without a signed-in user reject with NotSignedInError', async () => {
  const client = newClient();
  assert.throws(() => client.record.get('/'), jump.NotSignedInError);
  await assert.rejects(client.sync(), jump.NotSignedInError);
});

test('events: signed_in, record_synced and signed_out reach EventEmitter listeners', async () => {
  const client = newClient();
  const seen = [];
  client.on('event', (doc) => seen.push(doc.event));
  const signedIn = once(client, 'signed_in');
  const { uuid } = await registerUser(client);
  const [event] = await signedIn;
  assert.equal(event.kind, 'event');
  assert.equal(event.uuid, uuid);

  client.record.set('/aboutMe', 'for the event');
  const synced = once(client, 'record_synced');
  await client.sync();
  assert.deepEqual((await synced)[0].changed, ['/aboutMe']);

  const signedOut = once(client, 'signed_out');
  await client.signOut();
  await signedOut;
  assert.equal(client.isSignedIn, false);
  assert.deepEqual(
    seen.filter((name) => ['signed_in', 'record_synced', 'signed_out'].includes(name)),
    ['signed_in', 'record_synced', 'signed_out'],
  );
});

test('a session survives a restart: a second client on the same storageDirectory is signed in', async () => {
  const config = session.emu.config();
  const first = new jump.Client(config);
  const { uuid } = await registerUser(first);
  first.record.set('/aboutMe', 'unsynced but saved');
  first.close();
  const second = newClient(config);
  assert.equal(second.isSignedIn, true);
  assert.equal(second.state().uuid, uuid);
  assert.equal(second.record.get('/aboutMe'), 'unsynced but saved');
  await second.sync();
  assert.equal((await session.emu.user(uuid)).user.aboutMe, 'unsynced but saved');
});

test('a server that cannot be reached rejects with NetworkError', async () => {
  // A port the emulator no longer listens on once stopped: start a second emulator and stop it.
  const gone = await Emulator.start();
  const config = gone.config({ connectTimeoutMs: 2000 });
  await gone.stop();
  const client = newClient(config);
  const error = await client.signIn(uniqueEmail(), PASSWORD).catch((e) => e);
  assert.ok(error instanceof jump.NetworkError, `got ${error?.name}: ${error?.message}`);
  assert.equal(error.status, -3);
});
