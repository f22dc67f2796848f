'use strict';
// Social flows against a real emulator: native provider tokens (the emulator's fake provider takes a JSON token),
// two-step registration, and merge conflicts staged with POST /emulator/merge_conflict.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');

const ENGAGE_APP_ID = 'jump-default-engage';

const session = useEmulator();
function newClient(overrides) {
  const emu = session.emu;
  return session.track(new jump.Client(
    emu.config({ engageAppId: ENGAGE_APP_ID, engageDomain: emu.url, storageDirectory: ':memory:', ...overrides }),
  ));
}

/** The emulator's stand-in for a provider SDK's access token (the headless path of /signin/oauth_token). */
function providerToken(email, name = 'Nat Ive') {
  return JSON.stringify({ email, display_name: name });
}

async function rejection(promise) {
  return promise.then(
    (value) => assert.fail(`resolved with ${JSON.stringify(value)}`),
    (error) => error,
  );
}


test('native-token sign-in with thin registration registers, then signs the same user in', async () => {
  const email = uniqueEmail('native');
  const client = newClient({ captureEnableThinRegistration: true });
  const result = await client.socialSignInNative('facebook', providerToken(email));
  assert.equal(result.outcome, 'registered');
  assert.equal(result.isNew, true);
  assert.equal(result.provider, 'facebook');
  assert.equal(client.isSignedIn, true);
  assert.equal((await session.emu.user(result.uuid)).user.email, email);
  await client.signOut();
  const again = await client.socialSignInNative('facebook', providerToken(email));
  assert.equal(again.outcome, 'signed_in');
  assert.equal(again.isNew, false);
  assert.equal(again.uuid, result.uuid);
});

test('two-step registration: RegistrationRequiredError carries the token and prereg record; registerSocial completes', async () => {
  const email = uniqueEmail('twostep');
  const client = newClient();
  const error = await rejection(client.socialSignInNative('google', providerToken(email, 'Grace Hopper')));
  assert.ok(error instanceof jump.RegistrationRequiredError, `${error}`);
  assert.equal(error.status, -9);
  assert.equal(typeof error.socialRegistrationToken, 'string');
  assert.ok(error.socialRegistrationToken.length > 0);
  assert.ok(!error.message.includes(error.socialRegistrationToken), 'the token leaked into the message');
  assert.equal(error.preregRecord.email, email);
  assert.equal(error.preregRecord.displayName, 'Grace Hopper');
  assert.equal(error.provider, 'google');
  assert.equal(client.isSignedIn, false);

  const invalid = await rejection(
    client.registerSocial(error.socialRegistrationToken, { ...error.preregRecord, email: 'not an email address' }),
  );
  assert.ok(invalid instanceof jump.ValidationError, `${invalid}`);
  assert.ok('emailAddress' in invalid.invalidFields);
  assert.equal(client.isSignedIn, false);

  const result = await client.registerSocial(error.socialRegistrationToken, {
    ...error.preregRecord,
    givenName: 'Grace',
    familyName: 'Hopper',
  });
  assert.equal(result.isNew, true);
  assert.equal(client.isSignedIn, true);
  assert.equal(client.state().uuid, result.uuid);
  const { user } = await session.emu.user(result.uuid);
  assert.deepEqual([user.email, user.givenName, user.familyName], [email, 'Grace', 'Hopper']);

  // the token is spent
  await client.signOut();
  const spent = await rejection(client.registerSocial(error.socialRegistrationToken, error.preregRecord));
  assert.ok(spent instanceof jump.JumpError);
});

test('a merge conflict with a social account: MergeRequiredError, then the existing provider with mergeToken', async () => {
  const email = uniqueEmail('merge');
  const stage = await session.emu.admin('POST', '/emulator/merge_conflict', {
    email,
    existing_provider: 'google',
    provider: 'facebook',
  });
  const uuid = stage.user.uuid;
  const existing = stage.existing_identity;
  const conflicting = stage.conflicting_identity;
  const client = newClient({ captureEnableThinRegistration: true });
  const error = await rejection(client.socialSignInNative('facebook', conflicting.token));
  assert.ok(error instanceof jump.MergeRequiredError, `${error}`);
  assert.equal(error.status, -8);
  assert.equal(error.existingProvider, 'google');
  assert.equal(error.conflictingProvider, 'facebook');
  assert.equal(typeof error.mergeToken, 'string');
  assert.ok(!error.message.includes(error.mergeToken), 'the merge token leaked into the message');
  assert.equal(client.isSignedIn, false);

  const result = await client.socialSignInNative('google', existing.token, { mergeToken: error.mergeToken });
  assert.equal(result.outcome, 'signed_in');
  assert.equal(result.merged, true);
  assert.equal(result.uuid, uuid);
  // the facebook identity now signs in to that account
  await client.signOut();
  const again = await client.socialSignInNative('facebook', conflicting.token);
  assert.equal(again.outcome, 'signed_in');
  assert.equal(again.uuid, uuid);
});

test('a merge conflict with a password account: signInMerge (wrong password, then right) merges', async () => {
  const email = uniqueEmail('merge-pw');
  const stage = await session.emu.admin('POST', '/emulator/merge_conflict', {
    email,
    existing_provider: 'capture',
    provider: 'facebook',
    password: PASSWORD,
  });
  const uuid = stage.user.uuid;
  const conflicting = stage.conflicting_identity;
  const client = newClient();
  const error = await rejection(client.socialSignInNative('facebook', conflicting.token));
  assert.ok(error instanceof jump.MergeRequiredError, `${error}`);
  assert.equal(error.existingProvider, 'capture');
  assert.equal(error.conflictingProvider, 'facebook');

  const bad = await rejection(client.signInMerge(email, 'not the password', error.mergeToken));
  assert.ok(bad instanceof jump.BadCredentialsError, `${bad}`);
  assert.ok(!bad.message.includes('not the password'));
  assert.equal(client.isSignedIn, false);

  const result = await client.signInMerge(email, PASSWORD, error.mergeToken);
  assert.equal(result.merged, true);
  assert.equal(result.uuid, uuid);
  assert.equal(result.isNew, false);
  assert.equal(client.isSignedIn, true);
  // the password account now has both ways in
  await client.signOut();
  assert.equal((await client.socialSignInNative('facebook', conflicting.token)).uuid, uuid);
  await client.signOut();
  assert.equal((await client.signIn(email, PASSWORD)).uuid, uuid);
});

test('social arguments are checked: bad types reject with TypeError, an aborted signal with AbortError', async () => {
  const client = newClient();
  await assert.rejects(client.socialSignInNative(42, 'token'), TypeError);
  await assert.rejects(client.socialSignInNative('google', null), TypeError);
  await assert.rejects(client.socialSignInNative('google', 't', { tokenSecret: 1 }), TypeError);
  await assert.rejects(client.socialSignInNative('google', 't', { mergeToken: 1 }), TypeError);
  await assert.rejects(client.socialSignInNative('google', 't', { link: 'yes' }), TypeError);
  await assert.rejects(client.socialSignInNative('google', 't', null), TypeError);
  await assert.rejects(client.registerSocial('token', 'not an object'), TypeError);
  await assert.rejects(client.registerSocial(undefined, {}), TypeError);
  await assert.rejects(client.signInMerge('a@example.com', PASSWORD, undefined), TypeError);
  const aborted = await rejection(
    client.socialSignInNative('google', providerToken(uniqueEmail()), { signal: AbortSignal.abort() }),
  );
  assert.ok(aborted instanceof jump.AbortError, `${aborted}`);
  const unknown = await rejection(client.socialSignInNative('myspace', providerToken(uniqueEmail())));
  assert.ok(unknown instanceof jump.InvalidArgumentError, `${unknown}`);
  client.close();
  await assert.rejects(client.signInMerge('a@example.com', PASSWORD, 'm'), jump.InvalidHandleError);
});
