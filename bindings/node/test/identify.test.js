'use strict';
// identifyExternalUser: libjump calls authenticate on the thread running the identify (a thread of the addon),
// and the addon runs the app's function on the event loop while that thread waits. The outcome table, the app's
// errors as the rejection, an answer that is a Promise, aborting and closing while authenticate is pending, and
// a synchronous call made meanwhile that would otherwise deadlock.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { useEmulator } = require('./emulator');
const { TEAM_KEY, mint, newUser, tokenConfig } = require('./helpers/token-api');

const session = useEmulator();
function newClient() {
  return session.track(new jump.Client(tokenConfig(session.emu, { storageDirectory: ':memory:' })));
}

async function rejection(promise) {
  return promise.then((value) => assert.fail(`resolved with ${JSON.stringify(value)}`), (error) => error);
}

test('the outcome table: signed_in, none (no callback), kept, switched, and an API-key answer', async () => {
  const emu = session.emu;
  const [a, b] = [await newUser(emu), await newUser(emu)];
  const asked = [];
  const threads = [];
  const forUser = (user) => async (externalUserId, options) => {
    asked.push(externalUserId);
    threads.push(options.signal instanceof AbortSignal);
    return { type: 'sign_in_token', signInToken: await mint(emu, user) };
  };
  const client = newClient();
  assert.deepEqual(await client.identifyExternalUser('app-a', forUser(a)), { action: 'signed_in', userId: a });
  assert.equal(client.status().externalUserId, 'app-a');
  assert.equal((await client.identifyExternalUser('app-a', forUser(b))).action, 'none');
  assert.deepEqual(asked, ['app-a']); // no callback the second time
  // a plain string is a sign-in token too, and a synchronous answer works as well as a Promise
  const tokenOfA = await mint(emu, a);
  assert.equal((await client.identifyExternalUser('app-a2', () => tokenOfA)).action, 'kept');
  assert.equal((await client.identifyExternalUser('app-b', forUser(b))).action, 'switched');
  assert.equal(client.status().userId, b);
  assert.deepEqual(threads, [true, true]);
  const apiKey = await client.identifyExternalUser('app-k', () => ({
    type: 'api_key', apiKey: TEAM_KEY, userId: a, environment: 'dev', region: 'us',
  }));
  assert.equal(apiKey.action, 'switched');
  assert.equal(client.status().useApiKey, true);
});

test('authenticate that throws, rejects or answers nonsense fails the identify with its error, changing nothing', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient();
  await client.identifyExternalUser('app-u', () => mint(emu, user));
  class BackendDown extends Error {}
  const thrown = await rejection(client.identifyExternalUser('app-x', () => {
    throw new BackendDown('sync');
  }));
  assert.ok(thrown instanceof BackendDown, `${thrown}`);
  const rejected = await rejection(client.identifyExternalUser('app-x', async () => {
    throw new BackendDown('async');
  }));
  assert.ok(rejected instanceof BackendDown && rejected.message === 'async', `${rejected}`);
  const nonsense = await rejection(client.identifyExternalUser('app-x', () => ({ type: 'password' })));
  assert.ok(nonsense instanceof TypeError, `${nonsense}`);
  const empty = await rejection(client.identifyExternalUser('app-x', () => ({ type: 'api_key', apiKey: '' })));
  assert.ok(empty instanceof jump.InvalidArgumentError, `${empty}`);
  const status = client.status();
  assert.equal(status.userId, user);
  assert.equal(status.externalUserId, 'app-u');
  await assert.rejects(client.identifyExternalUser('app-x', 'not a function'), TypeError);
  await assert.rejects(client.identifyExternalUser(42, () => 'token'), TypeError);
  await assert.rejects(client.identifyExternalUser('', () => 'token'), jump.InvalidArgumentError);
});

test('aborting while authenticate is pending rejects with AbortError and signals the app\'s function', async () => {
  const emu = session.emu;
  const user = await newUser(emu);
  const client = newClient();
  const controller = new AbortController();
  let sawAbort = false;
  const pending = client.identifyExternalUser('app-slow', (_id, { signal }) => new Promise((resolve) => {
    signal.addEventListener('abort', () => {
      sawAbort = true;
      resolve('too late');
    });
  }), { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('user left')), 50);
  const error = await rejection(pending);
  assert.equal(error.name, 'AbortError');
  assert.equal(error.cause?.message, 'user left');
  assert.equal(sawAbort, true);
  assert.equal(client.status().signedIn, false);
  // the client goes on working
  assert.equal((await client.identifyExternalUser('app-u', () => mint(emu, user))).action, 'signed_in');
  // an already aborted signal calls nothing
  let called = false;
  await assert.rejects(client.identifyExternalUser('app-v', () => {
    called = true;
  }, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  assert.equal(called, false);
});

test('close() while authenticate is pending answers libjump at once: the identify rejects, nothing hangs', async () => {
  const client = newClient();
  let aborted = false;
  const pending = client.identifyExternalUser('app-never', (_id, { signal }) => new Promise(() => {
    signal.addEventListener('abort', () => {
      aborted = true;
    });
  }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  client.close();
  const error = await rejection(pending);
  assert.ok(error instanceof jump.JumpError, `${error}`);
  assert.equal(aborted, true);
});

test('a synchronous call while authenticate waits does not deadlock: the identify gives way (BusyError)', async () => {
  // identify holds the client's credential gate while authenticate runs; useApiKey, called on the JS thread
  // meanwhile, waits for that gate. The thread running the identify sees the JS thread stuck inside libjump and
  // gives up (JUMP_E_BUSY), so both finish: useApiKey after about half a second, the identify rejected.
  const emu = session.emu;
  const [a, b] = [await newUser(emu), await newUser(emu)];
  const client = newClient();
  let release;
  const gate = new Promise((resolve) => {
    release = resolve;
  });
  const pending = client.identifyExternalUser('app-d', async () => {
    await gate;
    return mint(emu, a);
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  client.useApiKey(TEAM_KEY, { userId: b, environment: 'dev', region: 'us' });
  const waited = Date.now() - started;
  assert.ok(waited < 5000, `useApiKey waited ${waited} ms`);
  release();
  const error = await rejection(pending);
  assert.ok(error instanceof jump.BusyError, `${error}`);
  assert.equal(client.status().userId, b);
});
