'use strict';
// Promises in flight: several at once, cancellation through AbortSignal, close() with requests pending, and a
// process that exits by itself once nothing is pending (the poll handle is unref'ed when idle).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { once } = require('node:events');
const jump = require('..');
const { PASSWORD, SIGN_IN_PATH, registerUser, useEmulator } = require('./emulator');

const session = useEmulator();
function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config(overrides)));
}


test('many calls at once on several clients: each Promise gets its own completion', async () => {
  const users = await Promise.all([1, 2, 3].map(() => registerUser(newClient())));
  const signers = users.map(() => newClient());
  const results = await Promise.all(users.map((user, i) => signers[i].signIn(user.email, PASSWORD)));
  assert.deepEqual(
    results.map((r) => r.uuid),
    users.map((u) => u.uuid),
  );
  // Several requests on one client, mixed kinds, plus one that fails: matched by request id, not by order.
  const client = signers[0];
  client.record.set('/aboutMe', 'concurrent');
  const outcomes = await Promise.allSettled([
    client.fetchRecord(),
    client.sync(),
    client.fetchRecord(),
    newClient().signIn(users[1].email, 'wrong password'),
    client.fetchRecord(),
  ]);
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.ok(outcomes[3].reason instanceof jump.BadCredentialsError);
  assert.deepEqual(outcomes[1].value.changed, ['/aboutMe']);
});

test('aborting a request in flight cancels it and rejects with AbortError (cause: the reason), quickly', async () => {
  const { email } = await registerUser(newClient());
  await session.emu.delay(SIGN_IN_PATH, 3000);
  const client = newClient();
  const controller = new AbortController();
  const started = Date.now();
  const pending = client.signIn(email, PASSWORD, { signal: controller.signal });
  const reason = new Error('user gave up');
  setTimeout(() => controller.abort(reason), 200);
  const error = await pending.catch((e) => e);
  assert.equal(error.name, 'AbortError', `got ${error}`);
  assert.equal(error.code, 'ABORT_ERR');
  assert.equal(error.cause, reason);
  assert.ok(error instanceof jump.AbortError);
  assert.ok(!(error instanceof jump.JumpError), 'the JUMP_E_CANCELLED error came through instead of AbortError');
  assert.ok(Date.now() - started < 2500, 'waited for the server instead of cancelling');
  assert.equal(client.isSignedIn, false);
});

test('AbortSignal.timeout() ends a slow call with AbortError whose cause is the TimeoutError', async () => {
  const { email } = await registerUser(newClient());
  await session.emu.delay(SIGN_IN_PATH, 3000);
  const client = newClient();
  const error = await client.signIn(email, PASSWORD, { signal: AbortSignal.timeout(200) }).catch((e) => e);
  assert.equal(error.name, 'AbortError', `got ${error}`);
  assert.equal(error.code, 'ABORT_ERR');
  assert.equal(error.cause?.name, 'TimeoutError');
  assert.equal(client.isSignedIn, false);
});

test('an already aborted signal rejects with AbortError at once and starts nothing', async () => {
  const client = newClient();
  const controller = new AbortController();
  controller.abort('not now');
  const error = await client.signIn('a@example.com', PASSWORD, { signal: controller.signal }).catch((e) => e);
  assert.equal(error.name, 'AbortError', `got ${error}`);
  assert.equal(error.code, 'ABORT_ERR');
  assert.equal(error.cause, 'not now');
  assert.ok(error instanceof jump.AbortError);
  const defaultReason = await client.sync({ signal: AbortSignal.abort() }).catch((e) => e);
  assert.equal(defaultReason.name, 'AbortError');
  assert.equal(defaultReason.cause?.name, 'AbortError'); // the DOMException AbortSignal.abort() gives
  const { counters } = await session.emu.admin('GET', '/emulator/counters');
  assert.deepEqual(counters, {}, 'a request reached the server');
});

test('aborting after completion changes nothing', async () => {
  const { email } = await registerUser(newClient());
  const client = newClient();
  const controller = new AbortController();
  await client.signIn(email, PASSWORD, { signal: controller.signal });
  controller.abort();
  assert.equal(client.isSignedIn, true);
});

test('close() with a request in flight rejects it with CancelledError (client_closed)', async () => {
  const { email } = await registerUser(newClient());
  await session.emu.delay(SIGN_IN_PATH, 2000);
  const client = new jump.Client(session.emu.config());
  const pending = client.signIn(email, PASSWORD);
  await new Promise((resolve) => setTimeout(resolve, 100));
  client.close();
  const error = await pending.catch((e) => e);
  assert.ok(error instanceof jump.CancelledError);
  assert.equal(error.code, 'JUMP_E_CANCELLED'); // not an abort: nobody's signal asked for it
  assert.equal(error.reason, 'client_closed');
  client.close(); // idempotent
});

test('close() right after an abort rejects the aborted call with AbortError, not CancelledError', async () => {
  const { email } = await registerUser(newClient());
  await session.emu.delay(SIGN_IN_PATH, 2000);
  const client = new jump.Client(session.emu.config());
  const controller = new AbortController();
  const pending = client.signIn(email, PASSWORD, { signal: controller.signal });
  controller.abort('leaving');
  client.close(); // before the cancelled completion is delivered
  const error = await pending.catch((e) => e);
  assert.equal(error.name, 'AbortError', `got ${error}`);
  assert.equal(error.cause, 'leaving');
});

test('the process exits by itself: an idle client does not hold the event loop', async () => {
  // A child that signs in, then leaves the client open. While the sign-in is pending the poll is ref'ed, so the
  // child lives until it prints; then nothing is pending and the child must end on its own.
  const { email } = await registerUser(newClient());
  const script = `
    const jump = require(${JSON.stringify(path.resolve(__dirname, '..'))});
    const client = new jump.Client(${JSON.stringify(session.emu.config())});
    client.signIn(${JSON.stringify(email)}, ${JSON.stringify(PASSWORD)}).then((r) => console.log('signed in', r.uuid));
  `;
  const started = Date.now();
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { timeout: 20000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    );
  });
  assert.match(stdout, /^signed in [0-9a-f-]{36}\n$/);
  assert.ok(Date.now() - started < 15000);
});

test('a client in a worker thread: works there, and a worker ended mid-request shuts it down cleanly', async () => {
  const { Worker } = require('node:worker_threads');
  const { email } = await registerUser(newClient());
  await session.emu.delay(SIGN_IN_PATH, 2000);
  // Each worker has its own loop (napi_get_uv_event_loop gives the worker's) and env cleanup hooks.
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const jump = require(workerData.module);
    const client = new jump.Client(workerData.config);
    if (workerData.hang) {
      client.signIn(workerData.email, workerData.password); // delayed by the emulator: still pending at terminate
      parentPort.postMessage('started');
    } else {
      client.signIn(workerData.email, workerData.password).then((r) => parentPort.postMessage(r.uuid));
    }
  `;
  const run = (hang) =>
    new Worker(source, {
      eval: true,
      workerData: { module: path.resolve(__dirname, '..'), config: session.emu.config(), email, password: PASSWORD, hang },
    });
  const hanging = run(true);
  const [started] = await once(hanging, 'message');
  assert.equal(started, 'started');
  assert.equal(await hanging.terminate(), 1);

  const worker = run(false);
  // Listening for 'exit' first: a worker that ends right after posting may emit 'exit' in the same turn as
  // 'message', before an await on the message would get to listen.
  const exited = once(worker, 'exit');
  const [uuid] = await once(worker, 'message');
  assert.match(uuid, /^[0-9a-f-]{36}$/);
  const [exitCode] = await exited; // ends by itself: the idle poll is unref'ed in the worker too
  assert.equal(exitCode, 0);
});
