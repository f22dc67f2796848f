'use strict';
// signOut runs jump_client_sign_out on a thread of the addon: the event loop keeps running while the best-effort
// token revoke (POST /v1/revoke, done for a sign-in-token session) is delayed by the emulator.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { randomUUID } = require('node:crypto');
const { once } = require('node:events');
const jump = require('..');
const { PASSWORD, registerUser, useEmulator } = require('./emulator');

const TEAM_KEY = 'jump-team-key';
const REVOKE_PATH = '/v1/revoke';

const session = useEmulator();
function newClient(config) {
  return session.track(new jump.Client(config));
}

/** A config for a sign-in-token app (no Capture settings). */
function tokenConfig() {
  const config = session.emu.config({ signInTokenAuthBaseUrl: session.emu.url, signInTokenApiBaseUrl: session.emu.url });
  for (const key of ['captureDomain', 'captureClientId', 'captureAppId', 'captureFlowName', 'captureFlowDomain']) {
    delete config[key];
  }
  return config;
}

async function api(method, urlPath, body) {
  const response = await fetch(session.emu.url + urlPath, {
    method,
    headers: { 'x-jump-api-key': TEAM_KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} -> ${response.status}: ${text}`);
  return text ? JSON.parse(text) : {};
}

/** A client signed in with a fresh user's sign-in token; resolves to {client, userId}. */
async function tokenSession() {
  const { user_id: userId } = await api('POST', '/v2/user', { client_user_id: randomUUID() });
  const { sign_in_token: token } = await api('POST', `/v2/user/${userId}/sign_in_token`);
  const client = newClient(tokenConfig());
  const result = await client.signInWithToken(token);
  assert.equal(result.userId, userId);
  const families = await session.emu.admin('GET', `/emulator/token_users/${userId}`);
  assert.equal(families.active_token_families, 1);
  return { client, userId };
}


test('the event loop keeps ticking while signOut waits for a delayed token revoke', async () => {
  const { client, userId } = await tokenSession();
  await session.emu.delay(REVOKE_PATH, 500);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  const signingOut = client.signOut();
  const returnedAfter = performance.now() - started;
  try {
    assert.ok(returnedAfter < 100, `signOut blocked the caller for ${returnedAfter} ms`);
    // the client answers meanwhile (the session is gone from memory at once)
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(client.state().signedIn, false);
    assert.equal(client.isSignedIn, false);
    await signingOut;
  } finally {
    clearInterval(timer);
  }
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 450, `signOut resolved after ${elapsed} ms: the revoke was not delayed`);
  assert.ok(ticks >= 20, `only ${ticks} ticks in ${elapsed} ms: the loop stalled`);
  const families = await session.emu.admin('GET', `/emulator/token_users/${userId}`);
  assert.equal(families.active_token_families, 0);
  assert.ok(families.revoked_token_families >= 1);
});

test('close() while a sign-out is running: the sign-out still settles, later calls see an invalid handle', async () => {
  const { client } = await tokenSession();
  await session.emu.delay(REVOKE_PATH, 300);
  const signingOut = client.signOut();
  client.close();
  assert.equal(client.closed, true);
  await signingOut; // the client is freed only once it finished
  assert.equal(client.isSignedIn, false);
  assert.throws(() => client.state(), jump.InvalidHandleError);
  await assert.rejects(client.signOut(), jump.InvalidHandleError);
});

test('overlapping sign-outs both resolve; a Capture session signs out and can sign in again', async () => {
  const client = newClient(session.emu.config());
  const { email } = await registerUser(client);
  assert.equal(client.isSignedIn, true);
  await Promise.all([client.signOut(), client.signOut()]);
  assert.equal(client.isSignedIn, false);
  await client.signIn(email, PASSWORD);
  assert.equal(client.isSignedIn, true);
  await client.signOut();
  assert.equal(client.isSignedIn, false);
});

test('an unreferenced client with a sign-out running is not collected under it', async () => {
  let signingOut;
  {
    const { client } = await tokenSession();
    await session.emu.delay(REVOKE_PATH, 200);
    signingOut = client.signOut();
    session.untrack(client); // drop the last reference but the running work's
  }
  require('node:v8').setFlagsFromString('--expose-gc');
  const gc = require('node:vm').runInNewContext('gc');
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await signingOut;
});

test('a worker ended while its sign-out runs on a thread of the addon ends cleanly; the process stays healthy', async () => {
  const { Worker } = require('node:worker_threads');
  const path = require('node:path');
  const { user_id: userId } = await api('POST', '/v2/user', { client_user_id: randomUUID() });
  const { sign_in_token: token } = await api('POST', `/v2/user/${userId}/sign_in_token`);
  await session.emu.delay(REVOKE_PATH, 400);
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const jump = require(workerData.module);
    const client = new jump.Client(workerData.config);
    client.signInWithToken(workerData.token).then(() => {
      client.signOut(); // the revoke is delayed: still running at terminate
      parentPort.postMessage('signing out');
    });
  `;
  const worker = new Worker(source, {
    eval: true,
    workerData: { module: path.resolve(__dirname, '..'), config: tokenConfig(), token },
  });
  const [message] = await once(worker, 'message');
  assert.equal(message, 'signing out');
  assert.equal(await worker.terminate(), 1);
  // and this process's own clients still work
  const { client } = await tokenSession();
  await client.signOut();
});
