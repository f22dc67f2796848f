'use strict';
// Sharing after a browser sign-in (the device token kept with the session): activities and statuses reach the
// emulator's Engage, Engage's errors as ServerError with each provider's outcome, a provider never signed in,
// and the email/SMS content with shortened URLs.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { uniqueEmail, useEmulator } = require('./emulator');
const { FakeIdP, httpCall } = require('./helpers/fake-idp');

const ARTICLE = 'https://example.com/articles/42?ref=libjump';

const session = useEmulator();
function newClient() {
  const emu = session.emu;
  return session.track(new jump.Client(emu.config({
    engageAppId: 'jump-default-engage', engageDomain: emu.url, captureEnableThinRegistration: true, storageDirectory: ':memory:',
  })));
}
const activities = async () => (await session.emu.admin('GET', '/emulator/engage/activities')).activities;

/** A client signed in through the browser with facebook, then twitter linked the same way. */
async function sharer() {
  const idp = new FakeIdP(session.emu);
  const email = uniqueEmail('share');
  const client = newClient();
  const identities = {};
  for (const [provider, link] of [['facebook', false], ['twitter', true]]) {
    const begun = await client.socialBegin(provider, { link });
    await client.socialComplete(await idp.finish(begun.url, { name: `Sha Rer ${provider}`, email }));
    identities[provider] = await idp.identityByEmail(provider, email);
  }
  await session.emu.admin('DELETE', '/emulator/engage/activities');
  return { client, identities };
}

test('share an activity, then a status (set_status for twitter without a url), then to two providers', async () => {
  const { client, identities } = await sharer();
  const result = await client.share({ action: 'read an article', url: ARTICLE, title: 'Answer', user_generated_content: 'Worth a read' }, ['facebook']);
  assert.deepEqual(result.results.facebook, { ok: true, method: 'activity' });
  const [stored] = await activities();
  assert.equal(stored.provider, 'facebook');
  assert.equal(stored.identifier, identities.facebook.identifier);
  assert.equal(stored.activity.url, ARTICLE);
  const status = await client.share({ action: 'is trying libjump', user_generated_content: 'Hello from Node' }, ['twitter']);
  assert.deepEqual(status.results.twitter, { ok: true, method: 'set_status' });
  assert.match((await activities()).at(-1).status, /Hello from Node/);
  const both = await client.share({ action: 'shares', url: ARTICLE }, ['facebook', 'twitter']);
  assert.deepEqual(Object.keys(both.results).sort(), ['facebook', 'twitter']);
  await assert.rejects(client.share({ action: 'x' }, 'facebook'), TypeError);
  await assert.rejects(client.share('{"action":"x"}', ['facebook']), TypeError);
});

test('Engage\'s error: ServerError whose results name the provider\'s errorClass; the next share goes through', async () => {
  const { client } = await sharer();
  await session.emu.admin('POST', '/emulator/engage/share_errors', { provider: 'twitter', code: 6, msg: 'Twitter duplicate status: Status is a duplicate.', count: 1 });
  const error = await client.share({ action: 'tries', url: ARTICLE }, ['twitter']).catch((e) => e);
  assert.ok(error instanceof jump.ServerError, `${error}`);
  assert.equal(error.results.twitter.ok, false);
  assert.equal(error.results.twitter.errorClass, 'duplicate');
  assert.equal(error.results.twitter.code, 6);
  assert.deepEqual(await activities(), []);
  assert.equal((await client.share({ action: 'tries', url: ARTICLE }, ['twitter'])).results.twitter.ok, true);
});

test('a provider never signed in through the browser is not_signed_in; the others still share', async () => {
  const { client } = await sharer();
  const error = await client.share({ action: 'tries', url: ARTICLE }, ['facebook', 'linkedin']).catch((e) => e);
  assert.ok(error instanceof jump.ServerError, `${error}`);
  assert.equal(error.results.facebook.ok, true);
  assert.equal(error.results.linkedin.errorClass, 'not_signed_in');
  assert.deepEqual((await activities()).map((a) => a.provider), ['facebook']);
  // a native sign-in has no device token: it cannot share
  const native = newClient();
  await native.socialSignInNative('facebook', JSON.stringify({ email: uniqueEmail('nat'), display_name: 'Na Tive' }));
  assert.equal((await native.share({ action: 'tries', url: ARTICLE }, ['facebook']).catch((e) => e)).results.facebook.errorClass,
    'not_signed_in');
});

test('shareContent: email and SMS content with URLs shortened by Engage (the URLs kept as keys)', async () => {
  const { client } = await sharer();
  const smsLink = 'https://example.com/s/very/long/path_for_sms';
  const content = await client.shareContent({
    action: 'read an article', url: ARTICLE, title: 'The answer', description: 'It is 42',
    email: { subject: 'Look at this', message_body: `Read ${ARTICLE}`, urls: [ARTICLE] },
    sms: { message: 'See this', urls: [smsLink] },
  });
  assert.deepEqual(new Set((await activities()).map((a) => a.kind)), new Set(['email', 'sms']));
  assert.equal(content.email.subject, 'Look at this');
  assert.match(content.sms.message, /^See this/);
  for (const [long, short] of [[ARTICLE, content.email.urls[ARTICLE]], [smsLink, content.sms.urls[smsLink]]]) {
    assert.ok(short.startsWith(`${session.emu.url}/s/`), short);
    const answer = await httpCall(short);
    assert.equal(answer.status, 302);
    assert.equal(answer.location, long);
  }
  const plain = await client.shareContent({ action: 'reads', url: ARTICLE, title: 'T', description: 'D' });
  assert.ok(plain.email.subject && plain.email.body);
});
