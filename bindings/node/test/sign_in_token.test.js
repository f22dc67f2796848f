'use strict';
// Sign-in tokens and API keys against the emulator's token API (signin-token.md): decoding, the session, status
// and its events, authorized requests, refreshes (before expiry, after a 401, racing nothing), a deleted user, a
// revoked refresh token, API-key mode and its migration, a restart.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const jump = require('..');
const { useEmulator } = require('./emulator');
const { TEAM_KEY, api, clearCounters, counters, mint, newUser, tokenConfig } = require('./helpers/token-api');

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(tokenConfig(session.emu, overrides)));
}

async function rejection(promise) {
  return promise.then((value) => assert.fail(`resolved with ${JSON.stringify(value)}`), (error) => error);
}

const tokenCalls = async () => (await counters(session.emu))['POST /v1/token'] ?? 0;

test('decodeSignInToken reads a token without using it, and says what is wrong with a bad one', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const raw = await mint(emu, user);
  const decoded = jump.decodeSignInToken(raw);
  assert.equal(decoded.userId, user);
  assert.equal(decoded.environment, 'dev');
  assert.equal(decoded.region, 'us');
  assert.equal(decoded.teamId, '00000000-0000-4000-8000-000000000001');
  assert.equal(typeof decoded.expiresAt, 'number');
  // the URL-safe alphabet, unpadded, decodes too
  const urlSafe = Buffer.from(Buffer.from(raw, 'base64').toString('utf8')).toString('base64url');
  assert.equal(jump.decodeSignInToken(urlSafe).userId, user);
  for (const [bad, words] of [['not base64 !', 'base64'], [Buffer.from('{"user_token":"a.b"}').toString('base64'), 'JWT'], ['', 'empty']]) {
    assert.throws(() => jump.decodeSignInToken(bad), (error) => error instanceof jump.InvalidArgumentError && error.message.includes(words));
  }
  assert.throws(() => jump.decodeSignInToken(42), TypeError);
});

test('request() runs on libjump\'s own request and an AbortSignal cancels it mid-request (AbortError)', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient();
  await client.signInWithToken(await mint(emu, user));
  const path = `/v2/user/${user}/profile`;
  await emu.delay(path, 5000);
  const controller = new AbortController();
  const started = Date.now();
  const held = client.request('GET', path, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('enough')), 300);
  const error = await rejection(held);
  assert.equal(error.name, 'AbortError');
  assert.equal(error.cause?.message, 'enough');
  assert.ok(Date.now() - started < 3000, `the aborted request took ${Date.now() - started} ms`);
  // A bad method is refused by libjump at the call, as a rejection.
  assert.ok((await rejection(client.request('BREW', path))) instanceof jump.InvalidArgumentError);
  assert.equal((await client.request('GET', path)).status, 200);
});

test('signInWithToken, status and its event, authorized requests on the credential\'s server only', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient();
  assert.equal(client.status().signedIn, false);
  const changed = once(client, 'status_changed');
  const result = await client.signInWithToken(await mint(emu, user));
  assert.deepEqual(result, { userId: user, changed: true, migrated: false });
  const [event] = await changed;
  assert.equal(event.status.userId, user);
  assert.equal(event.status.signedIn, true);
  const status = client.status();
  assert.equal(status.signedIn, true);
  assert.equal(status.useSignInToken, true);
  assert.equal(status.useApiKey, false);
  assert.equal(status.userId, user);
  assert.equal(status.configured, true);
  assert.equal(status.pendingReauthentication, false);

  const put = await client.request('PUT', `/v2/user/${user}/profile`, {
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ colour: 'blue' }),
  });
  assert.equal(put.status, 200);
  const got = await client.request('GET', `/v2/user/${user}/profile`);
  assert.equal(got.status, 200);
  assert.deepEqual(JSON.parse(got.body).data, { colour: 'blue' });
  assert.ok(got.headers.every((header) => Array.isArray(header) && header.length === 2));
  // bytes go as they are
  const bytes = await client.request('PUT', `/v2/user/${user}/profile`, {
    headers: { 'Content-Type': 'application/json' },
    body: Buffer.from(JSON.stringify({ colour: 'grün' })),
  });
  assert.equal(bytes.status, 200);
  assert.equal(JSON.parse((await client.request('GET', `/v2/user/${user}/profile`)).body).data.colour, 'grün');
  // another user's data: the server says no, and libjump passes the answer on (not a rejection)
  const other = await newUser(emu);
  assert.equal((await client.request('GET', `/v2/user/${other}/profile`)).status, 403);
  // the credential never leaves its server
  assert.ok((await rejection(client.request('GET', 'https://example.com/v2/user'))) instanceof jump.InvalidArgumentError);
  await assert.rejects(client.request('GET', '/v2/user', { body: 42 }), TypeError);
  await assert.rejects(client.request('GET', '/v2/user', { headers: { a: 1 } }), TypeError);

  // the same user again is a no-op; another one is refused, naming what differs
  await clearCounters(emu);
  assert.equal((await client.signInWithToken(await mint(emu, user))).changed, false);
  assert.equal(await tokenCalls(), 0);
  const refused = await rejection(client.signInWithToken(await mint(emu, other)));
  assert.ok(refused instanceof jump.AlreadySignedInError, `${refused}`);
  assert.equal(refused.detail.mismatch, 'user_id');
});

test('a 401 refreshes once and replays once; a short-lived token is refreshed before it expires', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient();
  await client.signInWithToken(await mint(emu, user));
  await emu.admin('POST', '/emulator/clock', { advance_seconds: 4000 }); // the server's clock only
  await clearCounters(emu);
  assert.equal((await client.request('GET', `/v2/user/${user}/profile`)).status, 200);
  const seen = await counters(emu);
  assert.equal(seen['POST /v1/token'], 1);
  assert.equal(seen[`GET /v2/user/${user}/profile`], 2);

  await emu.admin('POST', '/emulator/settings', { sign_in_access_token_lifetime: 30 });
  const short = newClient({ storageDirectory: ':memory:' });
  await short.signInWithToken(await mint(emu, user));
  await clearCounters(emu);
  const token = await short.accessToken(); // the 60-second margin: due at once
  assert.equal(await tokenCalls(), 1);
  assert.ok(token.length > 0);
  assert.equal((await short.request('GET', `/v2/user/${user}/profile`)).status, 200);
});

test('a deleted user signs everything out (user_invalidated), also on disk', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const config = tokenConfig(emu);
  const client = session.track(new jump.Client(config));
  await client.signInWithToken(await mint(emu, user));
  const invalidated = once(client, 'user_invalidated');
  await api(emu, 'DELETE', `/v2/user/${user}`);
  const error = await rejection(client.refreshAccessToken());
  assert.ok(error instanceof jump.NotSignedInError, `${error}`);
  assert.equal(error.detail.errorType, 'invalid_token');
  const [event] = await invalidated;
  assert.equal(event.userId, user);
  const status = client.status();
  assert.equal(status.signedIn, false);
  assert.equal(status.userId, null);
  const again = session.track(new jump.Client(config));
  assert.equal(again.status().signedIn, false);
});

test('a revoked refresh token leaves the session pending re-authentication until a new token', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient({ storageDirectory: ':memory:' });
  await client.signInWithToken(await mint(emu, user));
  await api(emu, 'POST', `/v2/user/${user}/revoke_tokens`);
  assert.ok((await rejection(client.refreshAccessToken())) instanceof jump.SessionExpiredError);
  assert.equal(client.status().pendingReauthentication, true);
  assert.equal(client.status().signedIn, true);
  assert.equal((await client.signInWithToken(await mint(emu, user))).changed, true);
  assert.equal(client.status().pendingReauthentication, false);
  assert.equal((await client.request('GET', `/v2/user/${user}/profile`)).status, 200);
});

test('API-key mode: the key in its header, migration to a sign-in token, mismatches refused', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const config = tokenConfig(emu);
  const client = session.track(new jump.Client(config));
  client.useApiKey(TEAM_KEY, { userId: user.toUpperCase(), environment: 'dev', region: 'us' });
  let status = client.status();
  assert.equal(status.useApiKey, true);
  assert.equal(status.signedIn, true);
  assert.equal(status.useSignInToken, false);
  assert.equal((await client.request('GET', `/v2/user/${user}`)).status, 200);
  const credentials = await client.credentials(3600);
  assert.deepEqual(credentials, { kind: 'api_key', accessToken: TEAM_KEY, expiresAt: null, expiresIn: null, refreshed: false });
  assert.equal(client.hasValidCredentials(1e12), true);
  const unsupported = await rejection(client.credentials(0, { force: true }));
  assert.ok(unsupported instanceof jump.UnsupportedError, `${unsupported}`);
  assert.ok(!unsupported.message.includes(TEAM_KEY), 'the API key leaked into a message');
  // the same user (case-insensitively), environment and region: migrates in place, and a restart keeps it
  const migrated = await client.signInWithToken(await mint(emu, user));
  assert.equal(migrated.migrated, true);
  assert.equal(client.status().useSignInToken, true);
  const relaunched = session.track(new jump.Client(config));
  status = relaunched.status();
  assert.equal(status.useSignInToken, true);
  assert.equal(status.userId, user);
  assert.equal((await relaunched.request('GET', `/v2/user/${user}/profile`)).status, 200);

  const other = newClient({ storageDirectory: ':memory:' });
  other.useApiKey(TEAM_KEY, { userId: await newUser(emu), environment: 'dev', region: 'us' });
  const differs = await rejection(other.signInWithToken(await mint(emu, user)));
  assert.ok(differs instanceof jump.AlreadySignedInError);
  assert.equal(differs.detail.mismatch, 'user_id');
  assert.equal(other.status().useApiKey, true); // nothing switched
  assert.throws(() => other.useApiKey(TEAM_KEY, { userId: 7 }), TypeError);
  assert.throws(() => other.useApiKey(TEAM_KEY, { environment: 'moon' }), jump.JumpError);
});

test('the sign-in-token session and its refresh survive a restart; signOut erases and revokes', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const config = tokenConfig(emu);
  const first = session.track(new jump.Client(config));
  await first.signInWithToken(await mint(emu, user));
  first.close();
  const restarted = session.track(new jump.Client(config));
  assert.equal(restarted.status().userId, user);
  await restarted.refreshAccessToken();
  assert.equal((await restarted.request('GET', `/v2/user/${user}/profile`)).status, 200);
  await clearCounters(emu);
  await restarted.signOut();
  assert.equal((await counters(emu))['POST /v1/revoke'], 1);
  assert.equal(restarted.status().signedIn, false);
  assert.equal(session.track(new jump.Client(config)).status().signedIn, false);
});

test('credentials of a sign-in-token session: no request while it lasts, force refreshes', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient({ storageDirectory: ':memory:' });
  await client.signInWithToken(await mint(emu, user));
  await clearCounters(emu);
  const credentials = await client.credentials(60);
  assert.equal(credentials.kind, 'sign_in_token');
  assert.equal(credentials.refreshed, false);
  assert.equal(await tokenCalls(), 0);
  const forced = await client.credentials(0, { force: true });
  assert.equal(forced.refreshed, true);
  assert.notEqual(forced.accessToken, credentials.accessToken);
  assert.equal(await tokenCalls(), 1);
});
