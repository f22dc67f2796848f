'use strict';
// credentials / hasValidCredentials / accessToken / refreshAccessToken of a Capture session: no request while the
// token lasts, one refresh for many concurrent callers once it does not, force, an expired token refreshed on
// its own (token_refreshed), and the argument checks.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { once } = require('node:events');
const jump = require('..');
const { registerUser, useEmulator } = require('./emulator');
const { clearCounters, counters } = require('./helpers/token-api');

const REFRESH = 'POST /oauth/refresh_access_token';

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config({ storageDirectory: ':memory:', ...overrides })));
}

const requestsMade = async () => Object.values(await counters(session.emu)).reduce((a, b) => a + b, 0);

test('a token that lasts needs no request: credentials, hasValidCredentials, accessToken', async () => {
  const client = newClient();
  await registerUser(client);
  const token = await client.accessToken();
  await clearCounters(session.emu);
  const credentials = await client.credentials(60);
  assert.equal(credentials.kind, 'capture');
  assert.equal(credentials.accessToken, token);
  assert.equal(credentials.refreshed, false);
  assert.ok(credentials.expiresIn > 3500 && credentials.expiresIn <= 3600, `${credentials.expiresIn}`);
  assert.equal(typeof credentials.expiresAt, 'number');
  assert.equal(client.hasValidCredentials(60), true);
  assert.equal(client.hasValidCredentials(7200), false);
  assert.equal(await requestsMade(), 0);
});

test('an expiring token: concurrent credentials calls share one refresh', async () => {
  await session.emu.admin('POST', '/emulator/settings', { access_token_lifetime: 30 });
  const client = newClient();
  await registerUser(client);
  await session.emu.admin('POST', '/emulator/settings', { access_token_lifetime: 3600 });
  await clearCounters(session.emu);
  const old = (await client.credentials(20)).accessToken; // not accessToken(): its 60 s margin would refresh
  assert.equal(client.hasValidCredentials(20), true);
  assert.equal(client.hasValidCredentials(60), false);
  assert.equal(await requestsMade(), 0);
  const results = await Promise.all(Array.from({ length: 16 }, () => client.credentials(60)));
  assert.equal((await counters(session.emu))[REFRESH], 1);
  assert.equal(new Set(results.map((r) => r.accessToken)).size, 1);
  assert.notEqual(results[0].accessToken, old);
  assert.ok(results.some((r) => r.refreshed));
  assert.equal(client.hasValidCredentials(60), true);
});

test('force refreshes; refreshAccessToken and accessToken agree; an expired token is refreshed on its own', async () => {
  const client = newClient();
  const { email } = await registerUser(client);
  const first = await client.credentials();
  await clearCounters(session.emu);
  const forced = await client.credentials(0, { force: true });
  assert.equal(forced.refreshed, true);
  assert.notEqual(forced.accessToken, first.accessToken);
  assert.equal((await counters(session.emu))[REFRESH], 1);
  const again = await client.credentials(60);
  assert.equal(again.accessToken, forced.accessToken);
  assert.equal(again.refreshed, false);

  await clearCounters(session.emu);
  await client.refreshAccessToken();
  assert.equal((await counters(session.emu))[REFRESH], 1);
  const second = await client.accessToken();
  assert.ok(second && second !== forced.accessToken);

  // the server's clock passes the token's life: the next call refreshes first, and says so
  const refreshed = once(client, 'token_refreshed');
  await clearCounters(session.emu);
  await session.emu.admin('POST', '/emulator/clock', { advance_seconds: 7200 });
  await client.fetchRecord();
  await refreshed;
  const seen = await counters(session.emu);
  assert.equal(seen[REFRESH], 1);
  assert.ok(seen['POST /entity'] >= 1);
  assert.notEqual(await client.accessToken(), second);
  assert.equal(client.record.get('/email'), email);
});

test('signed out, closed, negative or wrong: errors as statuses, TypeErrors and RangeErrors, false', async () => {
  const client = newClient();
  await assert.rejects(client.credentials(), jump.NotSignedInError);
  await assert.rejects(client.accessToken(), jump.NotSignedInError);
  assert.equal(client.hasValidCredentials(), false);
  const negative = await client.credentials(-1).catch((e) => e);
  assert.ok(negative instanceof jump.InvalidArgumentError, `${negative}`);
  assert.equal(negative.argument, 'min_ttl_seconds');
  await assert.rejects(client.credentials(1.5), RangeError);
  await assert.rejects(client.credentials(2 ** 63), RangeError);
  await assert.rejects(client.credentials('60'), TypeError);
  await assert.rejects(client.credentials(0, { force: 'yes' }), TypeError);
  assert.equal(client.hasValidCredentials(-1), false);
  assert.equal(client.hasValidCredentials(1.5), false);
  client.close();
  assert.equal(client.hasValidCredentials(), false);
  await assert.rejects(client.credentials(), jump.InvalidHandleError);
  await assert.rejects(client.refreshAccessToken(), jump.InvalidHandleError);
});
