'use strict';
// Several accounts in one client (config accounts: 'multiple'): a sign-in of another user adds an account and
// makes it active, the others stay signed in; accounts() lists them, switchAccount() makes one active without a
// password (a Promise over jump_client_switch_account_async), removeAccount() erases one. Real libjump against
// the real emulator.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { PASSWORD, SIGN_IN_PATH, uniqueEmail, useEmulator } = require('./emulator');

const session = useEmulator();

/** A user made through the emulator's admin API: {email, uuid}. */
async function newUser(tag) {
  const email = uniqueEmail(tag);
  const { user } = await session.emu.admin('POST', '/emulator/users', {
    email,
    password: PASSWORD,
    record: { displayName: tag },
  });
  return { email, uuid: user.uuid };
}

function multiClient() {
  return session.track(new jump.Client(session.emu.config({ accounts: 'multiple' })));
}

/** uuid -> active, of the saved accounts. */
function uuids(client) {
  return Object.fromEntries(client.accounts().accounts.map((account) => [account.uuid, account.active]));
}

test('with accounts single, accounts() lists the signed-in user only', async () => {
  const client = session.track(new jump.Client(session.emu.config()));
  assert.deepEqual(client.accounts(), { accounts: [], active: null });
  const a = await newUser('single-a');
  const b = await newUser('single-b');
  await client.signIn(a.email, PASSWORD);
  assert.deepEqual(uuids(client), { [a.uuid]: true });
  await assert.rejects(client.switchAccount(b.uuid), jump.NotFoundError);
});

test('two users stay signed in, switch back and forth without a password, and one is removed', async () => {
  const a = await newUser('multi-a');
  const b = await newUser('multi-b');
  const client = multiClient();
  const switched = [];
  client.on('account_switched', (event) => switched.push(event.uuid));
  await client.signIn(a.email, PASSWORD);
  await client.signIn(b.email, PASSWORD);

  const listed = client.accounts();
  assert.equal(listed.active, b.uuid);
  assert.equal(listed.accounts.length, 2);
  assert.equal(listed.accounts[0].uuid, b.uuid); // the active one first
  const byUuid = Object.fromEntries(listed.accounts.map((account) => [account.uuid, account]));
  // camelCase keys, as the binding's other documents
  assert.equal(byUuid[a.uuid].displayName, 'multi-a');
  assert.equal(byUuid[a.uuid].email, a.email);
  assert.equal(byUuid[a.uuid].signedIn, true);
  assert.equal(byUuid[a.uuid].reauthenticationRequired, false);
  assert.equal(typeof byUuid[a.uuid].lastUsed, 'number');
  assert.equal(byUuid[a.uuid].active, false);
  assert.equal(byUuid[b.uuid].active, true);
  assert.ok(!('display_name' in byUuid[a.uuid]));

  await session.emu.admin('DELETE', '/emulator/counters');
  assert.deepEqual(await client.switchAccount(a.uuid), {});
  assert.ok(client.isSignedIn);
  assert.equal(client.state().uuid, a.uuid);
  assert.equal(client.record.getString('/email'), a.email);
  await client.switchAccount(b.uuid);
  assert.equal(client.state().uuid, b.uuid);
  assert.equal(client.record.getString('/email'), b.email);
  await client.switchAccount(a.uuid);
  assert.equal(client.record.getString('/email'), a.email);
  const { counters } = await session.emu.admin('GET', '/emulator/counters');
  assert.ok(!counters[`POST ${SIGN_IN_PATH}`], JSON.stringify(counters)); // no password, no sign-in request
  // the events arrive through the client's queue, on the event loop
  for (let i = 0; i < 100 && switched.slice(-3).join() !== [a.uuid, b.uuid, a.uuid].join(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(switched.slice(-3), [a.uuid, b.uuid, a.uuid]);

  client.removeAccount(b.uuid);
  assert.deepEqual(uuids(client), { [a.uuid]: true });
  assert.ok(client.isSignedIn);
  client.record.setString('/aboutMe', 'still usable');
  await client.sync();
  const { user } = await session.emu.user(a.uuid);
  assert.equal(user.aboutMe, 'still usable');

  await assert.rejects(client.switchAccount(b.uuid), (error) => {
    assert.ok(error instanceof jump.NotFoundError, String(error));
    assert.equal(error.statusName, 'JUMP_E_NOT_FOUND');
    return true;
  });
  await assert.rejects(client.switchAccount('no-such-uuid'), jump.NotFoundError);
  assert.throws(() => client.removeAccount('no-such-uuid'), jump.NotFoundError);
  assert.equal(client.state().uuid, a.uuid); // a refused switch changes nothing
});

test('removing the active account signs no one else in', async () => {
  const a = await newUser('active-a');
  const b = await newUser('active-b');
  const client = multiClient();
  await client.signIn(a.email, PASSWORD);
  await client.signIn(b.email, PASSWORD);
  client.removeAccount(b.uuid);
  assert.equal(client.isSignedIn, false);
  assert.equal(client.accounts().active, null);
  assert.deepEqual(uuids(client), { [a.uuid]: false });
  await client.switchAccount(a.uuid);
  assert.ok(client.isSignedIn);
  assert.equal(client.state().uuid, a.uuid);
});

test('switchAccount takes an AbortSignal as the other network calls do', async () => {
  const a = await newUser('abort-a');
  const b = await newUser('abort-b');
  const client = multiClient();
  await client.signIn(a.email, PASSWORD);
  await client.signIn(b.email, PASSWORD);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(client.switchAccount(a.uuid, { signal: controller.signal }), { name: 'AbortError' });
  assert.equal(client.state().uuid, b.uuid); // never started
  await assert.rejects(client.switchAccount(42), TypeError);
});
