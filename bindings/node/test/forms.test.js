'use strict';
// Profile and password forms against the emulator: updateProfile (the form filled from the record, then a
// fetch), its validation by locale, changePassword, forgotPassword with the reset email (and the reset an app's
// backend completes), resendVerificationEmail whose link verifies.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');
const { clearCounters, counters } = require('./helpers/token-api');

const NEW_PASSWORD = 'brand new secret 7';
const TOO_LONG = 'x'.repeat(80);

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config({ storageDirectory: ':memory:', ...overrides })));
}

async function newUser(record = undefined) {
  const email = uniqueEmail('forms');
  const { user } = await session.emu.admin('POST', '/emulator/users', { email, password: PASSWORD, ...(record && { record }) });
  return { email, uuid: user.uuid };
}

async function signedIn(overrides) {
  const user = await newUser({ displayName: 'Old Name', givenName: 'Old' });
  const client = newClient(overrides);
  await client.signIn(user.email, PASSWORD);
  return { client, user };
}

async function emails(to, kind = undefined) {
  const all = (await session.emu.admin('GET', '/emulator/emails')).emails ?? [];
  return all.filter((e) => (e.to ?? '').toLowerCase() === to.toLowerCase() && (kind === undefined || e.kind === kind));
}

async function canSignIn(email, password) {
  const other = newClient();
  try {
    await other.signIn(email, password);
    return true;
  } catch (error) {
    if (error instanceof jump.BadCredentialsError) return false;
    throw error;
  } finally {
    other.close();
  }
}

const stored = async (uuid) => (await session.emu.user(uuid)).user;

test('updateProfile sends the form (unsynced edits included), then fetches the record again', async () => {
  const { client, user } = await signedIn();
  client.record.set('/aboutMe', 'edited before');
  await clearCounters(session.emu);
  assert.deepEqual(await client.updateProfile({ displayName: 'New Name', givenName: 'Newgiven', birthday: '1985-04-03' }), {});
  const saved = await stored(user.uuid);
  assert.equal(saved.displayName, 'New Name');
  assert.equal(saved.givenName, 'Newgiven');
  assert.ok(saved.birthday.startsWith('1985-04-03'));
  assert.equal(saved.aboutMe, 'edited before');
  const seen = await counters(session.emu);
  assert.equal(seen['POST /oauth/update_profile_native'], 1);
  assert.ok(seen['POST /entity'] >= 1);
  assert.equal(client.record.get('/displayName'), 'New Name');
  assert.deepEqual(client.record.changes().changed, []);

  await client.updateProfile(); // the record as it is
  await client.updateProfile({ aboutMe: null, birthday: null }); // null clears the field
  const cleared = await stored(user.uuid);
  assert.equal(cleared.aboutMe, null);
  assert.equal(cleared.birthday, null);
  assert.equal(cleared.displayName, 'New Name');
});

test('updateProfile validation: invalidFields in the client\'s locale, nothing left behind', async () => {
  const messages = {};
  for (const locale of ['en-US', 'fr-FR']) {
    const { client, user } = await signedIn({ captureLocale: locale });
    const error = await client.updateProfile({ displayName: TOO_LONG, birthday: '2999-01-01' }).catch((e) => e);
    assert.ok(error instanceof jump.ValidationError, `${error}`);
    assert.equal(error.server.code, 390);
    assert.ok(error.invalidFields.displayName.length > 0);
    assert.ok(error.invalidFields.birthdate.length > 0);
    messages[locale] = error.invalidFields;
    assert.equal(client.record.get('/displayName'), 'Old Name');
    assert.deepEqual(client.record.changes().changed, []);
    assert.equal((await stored(user.uuid)).displayName, 'Old Name');
  }
  assert.notDeepEqual(messages['en-US'].displayName, messages['fr-FR'].displayName);
});

test('updateProfile refuses what is not an attribute, and needs a session', async () => {
  await assert.rejects(newClient().updateProfile({ displayName: 'x' }), jump.NotSignedInError);
  const { client } = await signedIn();
  const unknown = await client.updateProfile({ noSuchAttribute: 1 }).catch((e) => e);
  assert.ok(unknown instanceof jump.InvalidArgumentError, `${unknown}`);
  assert.match(unknown.message, /noSuchAttribute/);
  await assert.rejects(client.updateProfile([1, 2]), TypeError);
  await assert.rejects(client.updateProfile('{"displayName": "x"}'), TypeError);
});

test('changePassword: a wrong current password is a ValidationError on its field; the right one changes it', async () => {
  const { client, user } = await signedIn();
  const wrong = await client.changePassword('not the password', NEW_PASSWORD).catch((e) => e);
  assert.ok(wrong instanceof jump.ValidationError, `${wrong}`);
  assert.ok(wrong.invalidFields.currentPassword.length > 0);
  assert.ok(!JSON.stringify(wrong.detail).includes('not the password'), 'the password leaked into the detail');
  assert.equal(await canSignIn(user.email, PASSWORD), true);
  const empty = await client.changePassword(PASSWORD, '').catch((e) => e);
  assert.ok(empty instanceof jump.InvalidArgumentError);
  assert.equal(empty.argument, 'new_password');
  await assert.rejects(client.changePassword(PASSWORD, null), TypeError);
  assert.deepEqual(await client.changePassword(PASSWORD, NEW_PASSWORD), {});
  assert.equal(await canSignIn(user.email, NEW_PASSWORD), true);
  assert.equal(await canSignIn(user.email, PASSWORD), false);
});

test('forgotPassword: an unknown address is a form-level ValidationError; a known one gets the reset email', async () => {
  const client = newClient(); // nobody signed in
  const nobody = uniqueEmail('nobody');
  const unknown = await client.forgotPassword(nobody).catch((e) => e);
  assert.ok(unknown instanceof jump.ValidationError, `${unknown}`);
  assert.equal(unknown.server.code, 212);
  assert.ok(unknown.invalidFields.forgotPasswordForm.length > 0);
  assert.equal((await client.forgotPassword('').catch((e) => e)).argument, 'email');
  assert.deepEqual(await emails(nobody), []);

  const user = await newUser();
  assert.deepEqual(await client.forgotPassword(user.email), {});
  const [mail] = await emails(user.email);
  assert.notEqual(mail.kind, 'verification');
  assert.ok(mail.code && mail.link.includes(mail.code));
  // the app's backend finishes the reset: the code for a token, then the no-auth change-password form
  const post = async (path, form) => (await fetch(session.emu.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })).json();
  const token = await post('/oauth/token', {
    grant_type: 'authorization_code', code: mail.code, redirect_uri: session.emu.url,
    client_id: 'jump-default-client', client_secret: 'jump-default-secret',
  });
  assert.ok(token.access_token, JSON.stringify(token));
  const answer = await post('/oauth/update_profile_native', {
    form: 'changePasswordFormNoAuth', newPassword: NEW_PASSWORD, newPasswordConfirm: NEW_PASSWORD,
    access_token: token.access_token, client_id: 'jump-default-client', flow: 'standard',
    flow_version: client.state().flowVersion, locale: 'en-US',
  });
  assert.equal(answer.stat, 'ok', JSON.stringify(answer));
  assert.equal(await canSignIn(user.email, NEW_PASSWORD), true);
  assert.equal(client.state().secretStore, 'memory'); // this test's client keeps its session in memory
});

test('resendVerificationEmail sends the message in the client\'s locale; its link verifies', async () => {
  const user = await newUser();
  assert.equal((await stored(user.uuid)).emailVerified ?? null, null);
  const client = newClient({ captureLocale: 'fr-FR' });
  assert.deepEqual(await client.resendVerificationEmail(user.email), {});
  const [mail] = await emails(user.email, 'verification');
  assert.equal(mail.locale, 'fr-FR');
  await fetch(mail.link);
  assert.ok((await stored(user.uuid)).emailVerified);
});

test('the form calls honour AbortSignal and reject after close()', async () => {
  const { client } = await signedIn();
  await assert.rejects(client.forgotPassword('a@example.com', { signal: AbortSignal.abort() }), { name: 'AbortError' });
  await assert.rejects(client.updateProfile(null, { signal: 'no' }), TypeError);
  client.close();
  await assert.rejects(client.changePassword(PASSWORD, NEW_PASSWORD), jump.InvalidHandleError);
  await assert.rejects(client.resendVerificationEmail('a@example.com'), jump.InvalidHandleError);
});
