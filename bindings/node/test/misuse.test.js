'use strict';
// Misuse throws and never crashes: calls after close(), wrong argument types, bad configs, the native class
// used directly with hostile arguments and receivers.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const jump = require('..');
const { Emulator, PASSWORD, ROOT } = require('./emulator');

const native = require(process.env.JUMP_NODE_ADDON || path.join(ROOT, 'build', 'node', 'jump.node'));
let emu;

before(async () => {
  emu = await Emulator.start();
});
after(() => emu?.stop());

test('every call after close() throws or rejects with InvalidHandleError', async () => {
  const client = new jump.Client(emu.config());
  client.close();
  assert.equal(client.closed, true);
  assert.equal(client.isSignedIn, false);
  assert.throws(() => client.state(), jump.InvalidHandleError);
  assert.throws(() => client.record.get('/'), jump.InvalidHandleError);
  assert.throws(() => client.record.set('/aboutMe', 'x'), jump.InvalidHandleError);
  assert.throws(() => client.record.changes(), jump.InvalidHandleError);
  await assert.rejects(client.signIn('a@example.com', PASSWORD), jump.InvalidHandleError);
  await assert.rejects(client.registerTraditional({ email: 'a@example.com' }, PASSWORD), jump.InvalidHandleError);
  await assert.rejects(client.sync(), jump.InvalidHandleError);
  await assert.rejects(client.fetchRecord(), jump.InvalidHandleError);
  await assert.rejects(client.signOut(), jump.InvalidHandleError);
  assert.throws(() => client.status(), jump.InvalidHandleError);
  assert.throws(() => client.useApiKey('key'), jump.InvalidHandleError);
  assert.throws(() => client.useWebLogin(`${emu.url}/weblogin`, { title: 'oauth_token=x' }), jump.InvalidHandleError);
  assert.throws(() => client.linkedProfiles(), jump.InvalidHandleError);
  assert.throws(() => client.setTokenUrl(null), jump.InvalidHandleError);
  assert.throws(() => client.restore(), jump.InvalidHandleError);
  assert.throws(() => client.eraseQuarantine(), jump.InvalidHandleError);
  assert.throws(() => client.record.append('/photos', {}), jump.InvalidHandleError);
  assert.throws(() => client.record.elementCount('/photos'), jump.InvalidHandleError);
  assert.equal(client.hasValidCredentials(), false);
  for (const pending of [client.credentials(), client.accessToken(), client.refreshAccessToken(), client.loadFlow(),
    client.loadSchema(), client.loadEngageConfig(), client.providers(), client.socialBegin('facebook'),
    client.socialComplete('http://127.0.0.1/'), client.request('GET', '/x'), client.shareContent({ action: 'a' }),
    client.share({ action: 'a' }, ['facebook']), client.updateProfile(), client.forgotPassword('a@example.com'),
    client.unlinkAccount('id'), client.identifyExternalUser('u', () => 'token'),
    client.socialSignInLoopback('facebook', () => {})]) {
    await assert.rejects(pending, jump.InvalidHandleError);
  }
  client.close();
});

test('wrong argument types are TypeErrors (rejections for the Promise-returning calls)', async () => {
  const client = new jump.Client(emu.config());
  try {
    await assert.rejects(client.signIn(42, PASSWORD), TypeError);
    await assert.rejects(client.signIn('a@example.com'), TypeError);
    await assert.rejects(client.signIn('a@example.com', { password: 'x' }), TypeError);
    await assert.rejects(client.signIn('a\0b@example.com', PASSWORD), TypeError);
    await assert.rejects(client.registerTraditional('{"email":"a@example.com"}', PASSWORD), TypeError);
    await assert.rejects(client.registerTraditional(null, PASSWORD), TypeError);
    await assert.rejects(client.sync({ signal: 'not a signal' }), TypeError);
    await assert.rejects(client.sync(null), TypeError);
    assert.throws(() => client.record.get(7), TypeError);
    assert.throws(() => client.record.set(null, 'x'), TypeError);
  } finally {
    client.close();
  }
});

test('a bad config throws: not an object is TypeError, an unknown key or wrong type InvalidArgumentError', () => {
  assert.throws(() => new jump.Client(), TypeError);
  assert.throws(() => new jump.Client('captureDomain=x'), TypeError);
  assert.throws(() => new jump.Client([]), TypeError);
  assert.throws(() => new jump.Client({ noSuchKey: 1 }), jump.InvalidArgumentError);
  assert.throws(() => new jump.Client({ requestTimeoutMs: 'soon' }), jump.InvalidArgumentError);
  assert.throws(() => new jump.Client({ captureDomain: 'http://example.com' }), (e) => e instanceof jump.JumpError);
});

test('the native class refuses hostile receivers, arguments and externals without crashing', () => {
  assert.throws(() => native.NativeClient('{}'), TypeError); // without new
  assert.throws(() => new native.NativeClient(), TypeError);
  assert.throws(() => new native.NativeClient('{"captureDomain": '), (e) => e.status === -1);
  const nc = new native.NativeClient(JSON.stringify(emu.config()));
  const proto = native.NativeClient.prototype;
  for (const name of ['state', 'signIn', 'sync', 'recordGet', 'close', 'setActive', 'cancel', 'status', 'isSignedIn',
    'request', 'identifyExternalUser', 'socialSignInLoopback', 'recordAppend', 'hasValidCredentials', 'loadFlow']) {
    assert.throws(() => proto[name].call({}), TypeError, name);
    assert.throws(() => proto[name].call(Object.create(proto)), TypeError, name);
  }
  assert.throws(() => nc.cancel({}), TypeError);
  assert.throws(() => nc.cancel(undefined), TypeError);
  assert.throws(() => nc.setActive('yes'), TypeError);
  assert.throws(() => nc.signIn(), TypeError);
  assert.throws(() => nc.recordSet('/aboutMe'), TypeError);
  assert.equal(nc.noop, undefined);
  // the bound isSignedIn is the object's own, and answers like the prototype's
  assert.ok(Object.hasOwn(nc, 'isSignedIn'));
  assert.equal(nc.isSignedIn(), proto.isSignedIn.call(nc));
  assert.throws(() => nc.credentials(1.5, 0), TypeError);
  assert.throws(() => nc.request('GET', '/x', null, 42), TypeError);
  assert.throws(() => nc.identifyExternalUser('u', 'not an id'), TypeError);
  assert.throws(() => new native.NativeClient('{}', 'not an id'), TypeError);
  assert.throws(() => new native.NativeClient('{}', 0), TypeError);
  assert.throws(() => native.answerHostCall({}, 0), TypeError);
  assert.throws(() => native.setHostDispatcher(42), TypeError);
  assert.throws(() => native.setLogCallback('x', 0), TypeError);
  assert.throws(() => native.statusStr(), TypeError);
  assert.equal(typeof JSON.parse(nc.state()).signed_in, 'boolean');
  // A request handle of one client is a valid handle for cancel; after completion cancel is harmless.
  const request = nc.signIn('nobody@example.com', PASSWORD);
  assert.equal(typeof request.id, 'number');
  nc.cancel(request.handle);
  assert.throws(() => native.answerHostCall(request.handle, 0), TypeError); // an external, but not a host call's
  nc.close();
  nc.close();
  // A failed jump_* call is returned as {status, detail}, not thrown (lib/from-native.js throws the JumpError).
  assert.equal(nc.state().status, -2);
  assert.equal(typeof JSON.parse(nc.state().detail).message, 'string');
  const cancelled = nc.cancel(request.handle); // the client is gone; the request handle is still libjump's to judge
  assert.ok(cancelled === undefined || typeof cancelled.status === 'number');
  nc.setActive(true); // closed: a no-op, never a dangling poll handle
});

test('unclosed clients: collected ones are freed by the finalizer, the rest at exit by the cleanup hook', async () => {
  // In a child with --expose-gc: dropped clients are collected (finalizer: poll closed, jump_client_free), and
  // one left open, with a request in flight, is shut by the env cleanup hook when the process exits.
  const script = `
    const jump = require(${JSON.stringify(path.resolve(__dirname, '..'))});
    const config = ${JSON.stringify(emu.config({ storageDirectory: ':memory:' }))};
    const fds = () => require('node:fs').readdirSync('/proc/self/fd').length;
    const base = fds();
    for (let i = 0; i < 50; i++) new jump.Client(config);
    const made = fds();
    global.gc();
    setImmediate(() => {
      global.gc();
      setImmediate(() => {
        // Each client holds its queue's fd: freed clients give them back.
        if (made < base + 50 || fds() > base + 5) throw new Error('not freed: ' + [base, made, fds()]);
        const kept = new jump.Client(config);
        kept.signIn('nobody@example.com', 'x').catch(() => {});
        console.log('done');
        process.exit(0);
      });
    });
  `;
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '-e', script], { timeout: 20000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
    );
  });
  assert.equal(stdout, 'done\n');
});
