'use strict';
// Host storage (new Client(config, {storage})): the session kept in a JavaScript key/value object instead of
// files. Its functions run on the JS thread, called right there by a synchronous call (record.set saving the
// edit) and from the loop for libjump's threads (a sync saving what the server acknowledged); failures are
// StorageErrors whose cause is the app's error; the quarantine; the storage released once unused.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');
const { clearCounters, counters } = require('./helpers/token-api');

/** A Map-backed storage with failure switches and call counters. */
class MapStorage {
  data = new Map();
  calls = { load: 0, save: 0, erase: 0 };
  failLoad = false;
  failSave = false;
  failErase = false;

  load(key) {
    this.calls.load++;
    if (this.failLoad) throw new Error('the keychain is locked');
    return this.data.get(key) ?? null;
  }

  save(key, data) {
    assert.equal(typeof key, 'string');
    assert.ok(Buffer.isBuffer(data));
    this.calls.save++;
    if (this.failSave) throw new Error('the keychain is full');
    this.data.set(key, Buffer.from(data));
  }

  erase(key) {
    this.calls.erase++;
    if (this.failErase) throw new Error('the keychain is read-only');
    this.data.delete(key);
  }

  keys(prefix) {
    return [...this.data.keys()].filter((key) => key.startsWith(prefix));
  }
}

const session = useEmulator();
function hosted(storage, overrides) {
  const config = session.emu.config(overrides);
  return { client: session.track(new jump.Client(config, { storage })), directory: config.storageDirectory };
}

async function register(client) {
  return (await client.registerTraditional({ email: uniqueEmail(), displayName: 'Hosted' }, PASSWORD)).uuid;
}

test('the session and the flow go to the storage, and no file to storageDirectory', async () => {
  const storage = new MapStorage();
  const { client, directory } = hosted(storage);
  assert.ok(storage.calls.load >= 1, 'jump_client_new looked for a saved session');
  assert.equal(client.state().restoreError, null);
  await client.loadFlow();
  const uuid = await register(client);
  const [key] = storage.keys('session-');
  assert.match(key, /^session-jump-default-client-.*\.json$/);
  assert.ok(storage.data.get(key).includes(uuid));
  assert.ok(!storage.data.get(key).includes(PASSWORD));
  assert.equal(storage.keys('flow-').length, 1);
  assert.equal(client.state().storageError, null);
  assert.deepEqual(fs.readdirSync(directory), []);
});

test('a new client restores from the storage with no request; libjump\'s threads save through the loop', async () => {
  const storage = new MapStorage();
  const first = hosted(storage).client;
  const uuid = await register(first);
  first.record.set('/aboutMe', 'kept in the keychain'); // saved right here, on the JS thread
  first.close();
  await clearCounters(session.emu);
  const second = hosted(storage).client;
  const state = second.state();
  assert.equal(state.uuid, uuid);
  assert.equal(state.unsyncedChanges, true);
  assert.deepEqual(await counters(session.emu), {});
  assert.equal(second.record.get('/aboutMe'), 'kept in the keychain');
  const saves = storage.calls.save;
  assert.deepEqual((await second.sync()).changed, ['/aboutMe']); // the acknowledged change saved from a libjump thread
  assert.ok(storage.calls.save > saves);
  assert.equal((await session.emu.user(uuid)).user.aboutMe, 'kept in the keychain');
  const third = hosted(storage).client;
  assert.equal(third.state().unsyncedChanges, false);
  await third.signOut();
  assert.ok(storage.calls.erase >= 1);
  assert.deepEqual(storage.keys('session-'), []);
});

test('a failing load: signed out with restoreError, StorageError whose cause is the app\'s error, until restore()', async () => {
  const storage = new MapStorage();
  const uuid = await register(hosted(storage).client);
  const saved = storage.keys('session-');
  storage.failLoad = true;
  const { client } = hosted(storage);
  assert.equal(client.isSignedIn, false);
  assert.equal(client.state().restoreError.statusName, 'JUMP_E_STORAGE');
  const restore = (() => {
    try {
      client.restore();
      return null;
    } catch (error) {
      return error;
    }
  })();
  assert.ok(restore instanceof jump.StorageError, `${restore}`);
  assert.equal(restore.cause?.message, 'the keychain is locked');
  await assert.rejects(client.sync(), jump.StorageError);
  assert.equal(storage.calls.erase, 0); // nothing deleted
  assert.deepEqual(storage.keys('session-'), saved);
  storage.failLoad = false;
  client.restore();
  assert.equal(client.state().uuid, uuid);
  assert.equal(client.state().restoreError, null);
  assert.ok((await client.accessToken()).length > 0);
});

test('load must answer synchronously with bytes: a string or a Promise is a StorageError (TypeError as cause)', async () => {
  const storage = new MapStorage();
  await register(hosted(storage).client);
  const original = storage.load.bind(storage);
  for (const wrong of [() => 'not bytes', async () => null]) {
    storage.load = (key) => (key.startsWith('session-') ? wrong() : original(key));
    const { client } = hosted(storage);
    assert.equal(client.isSignedIn, false);
    assert.throws(() => client.restore(), (error) => error instanceof jump.StorageError && error.cause instanceof TypeError);
    storage.load = original;
    client.restore();
    assert.equal(client.isSignedIn, true);
  }
});

test('a failing save shows in state().storageError; a failing erase fails signOut, with the app\'s error', async () => {
  const storage = new MapStorage();
  storage.failSave = true;
  const { client } = hosted(storage);
  const uuid = await register(client); // the sign-in itself succeeds
  assert.equal(client.state().uuid, uuid);
  assert.equal(client.state().storageError.statusName, 'JUMP_E_STORAGE');
  assert.deepEqual(storage.keys('session-'), []);
  storage.failSave = false;
  client.record.set('/aboutMe', 'saved at last');
  assert.equal(client.state().storageError, null);
  assert.equal(storage.keys('session-').length, 1);

  storage.failErase = true;
  const error = await client.signOut().catch((e) => e);
  assert.ok(error instanceof jump.StorageError, `${error}`);
  assert.equal(error.cause?.message, 'the keychain is read-only');
  assert.equal(storage.keys('session-').length, 1);
  storage.failErase = false;
  await client.signOut();
  assert.deepEqual(storage.keys('session-'), []);
});

test('a synchronous call of the JS thread first runs the storage calls libjump\'s threads wait for', async () => {
  // The JS thread does not yield below: the sync's save, queued while it spins, runs inside its state() call.
  const storage = new MapStorage();
  const { client } = hosted(storage);
  await register(client);
  client.record.set('/aboutMe', 'busy loop');
  const saves = storage.calls.save;
  const syncing = client.sync();
  // Without yielding, the storage functions can only run inside the state() calls: between two of them the sync's
  // thread goes on (its request, the next storage call) and queues what it needs.
  for (let round = 0; round < 20 && storage.calls.save === saves; round++) {
    const until = Date.now() + 100;
    while (Date.now() < until);
    client.state();
  }
  assert.ok(storage.calls.save > saves, 'the save waited for the loop to go idle');
  assert.deepEqual((await syncing).changed, ['/aboutMe']);
  assert.equal(client.state().storageError, null);
});

test('the JS thread calling libjump while a save waits for it: the save runs meanwhile, nothing stalls', async () => {
  // The sync's thread saves under the client's lock and waits for the JS thread; state() needs that lock. The
  // JS thread's calls run on a helper while it serves the save, so neither waits for the other.
  const storage = new MapStorage();
  const { client } = hosted(storage);
  await register(client);
  for (let round = 0; round < 3; round++) {
    client.record.set('/aboutMe', `round ${round}`);
    const syncing = client.sync().then(() => 'synced', (error) => error.code);
    const until = Date.now() + 300;
    let slowest = 0;
    while (Date.now() < until) {
      const started = Date.now();
      client.state();
      slowest = Math.max(slowest, Date.now() - started);
    }
    assert.ok(slowest < 200, `a state() call took ${slowest} ms`);
    assert.equal(await syncing, 'synced');
    assert.equal(client.state().storageError, null);
  }
  assert.equal((await session.emu.user(client.state().uuid)).user.aboutMe, 'round 2');
});

test('another user\'s unsynced edits are set aside (quarantine) and eraseQuarantine removes them', async () => {
  const storage = new MapStorage();
  const { client } = hosted(storage);
  await register(client);
  client.record.set('/aboutMe', 'not synced');
  await client.registerTraditional({ email: uniqueEmail('other'), displayName: 'Other' }, PASSWORD); // no sign-out
  const [entry] = client.state().quarantine;
  assert.equal(entry.reason, 'replaced');
  assert.equal(entry.unsyncedChanges, true);
  assert.ok(storage.keys('quarantine').length > 0);
  client.eraseQuarantine();
  assert.deepEqual(client.state().quarantine, []);
  assert.deepEqual(storage.keys('quarantine'), []);
});

test('options.storage is checked; the storage is released once no client uses it', async () => {
  const config = session.emu.config({ storageDirectory: ':memory:' });
  assert.throws(() => new jump.Client(config, { storage: {} }), TypeError);
  assert.throws(() => new jump.Client(config, { storage: { load() {}, save() {} } }), /erase/);
  assert.throws(() => new jump.Client(config, null), TypeError);
  const script = `
    const jump = require(${JSON.stringify(path.resolve(__dirname, '..'))});
    let storage = { load: () => null, save() {}, erase() {} };
    let released = false;
    const registry = new FinalizationRegistry(() => { released = true; }); // kept: a collected registry calls nothing
    registry.register(storage, 0);
    let client = new jump.Client(${JSON.stringify(config)}, { storage });
    storage = null;
    global.gc();
    setImmediate(() => {
      global.gc();
      if (released) throw new Error('released while the client uses it');
      client.close();
      client = null;
      const tries = { n: 0 };
      const check = () => setTimeout(() => {
        global.gc();
        if (released) return console.log('released');
        if (++tries.n > 50) throw new Error('never released');
        check();
      }, 20);
      check();
    });
  `;
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '-e', script], { timeout: 20000 }, (error, out, err) =>
      (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
  });
  assert.equal(stdout, 'released\n');
});
