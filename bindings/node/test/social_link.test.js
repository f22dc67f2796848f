'use strict';
// Linking identities to the signed-in user (native tokens and the browser, with link: true), linkedProfiles,
// unlinkAccount, and the last identity of a social-only account, which is kept.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');
const { FakeIdP } = require('./helpers/fake-idp');
const { clearCounters, counters } = require('./helpers/token-api');

const session = useEmulator();
function newClient(overrides) {
  const emu = session.emu;
  return session.track(new jump.Client(emu.config({ engageAppId: 'jump-default-engage', engageDomain: emu.url, storageDirectory: ':memory:', ...overrides })));
}
const providerToken = (email, name = 'Nat Ive') => JSON.stringify({ email, display_name: name });
const identifiersOf = async (uuid) => (await session.emu.user(uuid)).user.profiles.map((p) => p.identifier);

test('link through a native token and through the browser; unlink; an unlinked identity no longer signs in', async () => {
  const emu = session.emu;
  const idp = new FakeIdP(emu);
  const email = uniqueEmail('link');
  const { user: owner } = await emu.admin('POST', '/emulator/users', { email, password: PASSWORD });
  const client = newClient();
  await assert.rejects(client.socialSignInNative('google', providerToken(uniqueEmail()), { link: true }), jump.NotSignedInError);
  await assert.rejects(client.socialBegin('facebook', { link: true }), jump.NotSignedInError);
  await client.signIn(email, PASSWORD);
  assert.deepEqual(client.linkedProfiles(), []);

  const google = await client.socialSignInNative('google', providerToken(uniqueEmail('g')), { link: true });
  assert.equal(google.outcome, 'linked');
  assert.equal(google.uuid, owner.uuid);
  assert.deepEqual(client.linkedProfiles().map((p) => p.identifier), [google.identifier]);
  const begun = await client.socialBegin('facebook', { link: true });
  const facebook = await client.socialComplete(await idp.finish(begun.url, { name: 'Fa Ce', email: uniqueEmail('f') }));
  assert.equal(facebook.outcome, 'linked');
  assert.deepEqual(client.linkedProfiles().map((p) => p.identifier), [google.identifier, facebook.identifier]);
  assert.equal(client.state().uuid, owner.uuid);

  assert.deepEqual(await client.unlinkAccount(google.identifier), {});
  assert.deepEqual(client.linkedProfiles().map((p) => p.identifier), [facebook.identifier]);
  assert.deepEqual(await identifiersOf(owner.uuid), [facebook.identifier]);
  await client.unlinkAccount(facebook.identifier); // a password account may drop its last identity
  assert.deepEqual(client.linkedProfiles(), []);
  await assert.rejects(client.unlinkAccount(facebook.identifier), jump.NotFoundError);
  await client.signOut();
  await assert.rejects(client.socialSignInNative('google', JSON.stringify({ identifier: google.identifier })),
    jump.RegistrationRequiredError);
});

test('the last identity of a social-only account is kept, refused before any request', async () => {
  const emu = session.emu;
  const client = newClient({ captureEnableThinRegistration: true });
  const result = await client.socialSignInNative('facebook', providerToken(uniqueEmail('only')));
  const [facebook] = client.linkedProfiles();
  await clearCounters(emu);
  const refused = await client.unlinkAccount(facebook.identifier).catch((e) => e);
  assert.ok(refused instanceof jump.InvalidArgumentError, `${refused}`);
  assert.equal(refused.reason, 'last_identity');
  assert.equal(refused.argument, 'identifier');
  assert.equal((await counters(emu))['POST /oauth/unlink_account_native'], undefined);
  const google = await client.socialSignInNative('google', providerToken(uniqueEmail('second')), { link: true });
  await client.unlinkAccount(facebook.identifier); // another identity remains
  assert.deepEqual(await identifiersOf(result.uuid), [google.identifier]);
  await assert.rejects(client.unlinkAccount(42), TypeError);
});
