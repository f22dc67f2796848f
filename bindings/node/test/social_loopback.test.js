'use strict';
// The loopback receiver (RFC 8252): libjump listens on 127.0.0.1 and calls openUrl on a thread of its own; the
// addon runs the app's openUrl on the event loop while that thread waits. Here openUrl hands the URL to a
// "browser" (helpers/fake-idp.js) that fills in the provider's page and lands on the listener.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { uniqueEmail, useEmulator } = require('./emulator');
const { FakeIdP, LoopbackBrowser, httpCall, listenerOf } = require('./helpers/fake-idp');

const session = useEmulator();
function newClient(overrides) {
  const emu = session.emu;
  return session.track(new jump.Client(emu.config({ engageAppId: 'jump-default-engage', engageDomain: emu.url, storageDirectory: ':memory:', ...overrides })));
}

async function rejection(promise) {
  return promise.then((value) => assert.fail(`resolved with ${JSON.stringify(value)}`), (error) => error);
}

/** Whether nothing listens at url any more. */
async function refused(url) {
  try {
    await httpCall(url);
    return false;
  } catch (error) {
    return error.cause?.code === 'ECONNREFUSED';
  }
}

test('a loopback sign-in: openUrl once, the browser lands on the listener, which is gone afterwards', async () => {
  const emu = session.emu;
  const idp = new FakeIdP(emu);
  const email = uniqueEmail('loop');
  const browser = new LoopbackBrowser(idp, { name: 'Lou Pback', email });
  const client = newClient({ captureEnableThinRegistration: true });
  const result = await client.socialSignInLoopback('facebook', browser.openUrl, { timeoutMs: 30000 });
  await browser.done;
  assert.equal(browser.urls.length, 1);
  const landed = new URL(browser.landing.url);
  assert.equal(landed.hostname, '127.0.0.1');
  assert.equal(browser.landing.status, 200);
  assert.match(browser.landing.text.toLowerCase(), /close/);
  assert.equal(result.outcome, 'registered');
  assert.equal(result.provider, 'facebook');
  assert.equal(result.identifier, (await idp.identityByEmail('facebook', email)).identifier);
  assert.equal(client.state().uuid, result.uuid);
  assert.ok(await refused(`http://127.0.0.1:${landed.port}/`), 'the listener is still there');

  // the same identity again, with options: forceReauth reaches the provider's URL
  await client.signOut();
  const again = new LoopbackBrowser(idp, { identity: email });
  const back = await client.socialSignInLoopback('facebook', again.openUrl, { forceReauth: true });
  await again.done;
  assert.ok(new URL(again.urls[0]).searchParams.has('force_reauth'));
  assert.equal(back.outcome, 'signed_in');
  assert.equal(back.uuid, result.uuid);
});

test('the user cancels on the page: CancelledError (user_canceled)', async () => {
  const browser = new LoopbackBrowser(new FakeIdP(session.emu), { cancel: true });
  const client = newClient();
  const error = await rejection(client.socialSignInLoopback('twitter', browser.openUrl));
  await browser.done;
  assert.ok(error instanceof jump.CancelledError, `${error}`);
  assert.equal(error.reason, 'user_canceled');
  assert.equal(client.isSignedIn, false);
});

test('a browser that never comes back: TimeoutError after timeoutMs, the listener closed', async () => {
  const urls = [];
  const client = newClient();
  const started = Date.now();
  const error = await rejection(client.socialSignInLoopback('facebook', (url) => urls.push(url), { timeoutMs: 1500 }));
  const elapsed = Date.now() - started;
  assert.ok(error instanceof jump.TimeoutError, `${error}`);
  assert.ok(elapsed >= 1000 && elapsed < 15000, `${elapsed} ms`);
  assert.equal(urls.length, 1);
  assert.ok(await refused(listenerOf(urls[0])));
});

test('an openUrl that throws or rejects ends the sign-in with its own error, at once', async () => {
  class NoBrowser extends Error {}
  const client = newClient();
  const started = Date.now();
  const thrown = await rejection(client.socialSignInLoopback('facebook', () => {
    throw new NoBrowser('none here');
  }, { timeoutMs: 30000 }));
  assert.ok(thrown instanceof NoBrowser, `${thrown}`);
  const rejected = await rejection(client.socialSignInLoopback('facebook', async () => {
    throw new NoBrowser('none there');
  }, { timeoutMs: 30000 }));
  assert.ok(rejected instanceof NoBrowser && rejected.message === 'none there', `${rejected}`);
  assert.ok(Date.now() - started < 10000, 'it waited for a browser that never opened');
  assert.equal(client.isSignedIn, false);
  // an openUrl returning a Promise is waited for; one that resolves is as good as a plain return
  const urls = [];
  const slow = await rejection(client.socialSignInLoopback('facebook', async (url) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    urls.push(url);
  }, { timeoutMs: 1000 }));
  assert.ok(slow instanceof jump.TimeoutError, `${slow}`);
  assert.equal(urls.length, 1);
});

test('aborting stops the wait quickly (AbortError) and closes the listener', async () => {
  const client = newClient();
  const controller = new AbortController();
  let opened;
  const pending = client.socialSignInLoopback('facebook', (url) => {
    opened = url;
    setTimeout(() => controller.abort(), 100);
  }, { signal: controller.signal, timeoutMs: 60000 });
  const started = Date.now();
  const error = await rejection(pending);
  assert.equal(error.name, 'AbortError');
  assert.ok(Date.now() - started < 5000);
  assert.ok(await refused(listenerOf(opened)));
  assert.equal(client.isSignedIn, false);
});

test('loopback arguments are checked: TypeErrors before anything starts', async () => {
  const client = newClient();
  await assert.rejects(client.socialSignInLoopback('facebook', 'not a function'), TypeError);
  await assert.rejects(client.socialSignInLoopback(7, () => {}), TypeError);
  await assert.rejects(client.socialSignInLoopback('facebook', () => {}, { timeoutMs: 'soon' }), TypeError);
  await assert.rejects(client.socialSignInLoopback('facebook', () => {}, { link: 1 }), TypeError);
  let called = false;
  await assert.rejects(client.socialSignInLoopback('facebook', () => {
    called = true;
  }, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  assert.equal(called, false);
});
