'use strict';
// The browser flow of social sign-in (socialBegin, the provider's page, socialComplete) driven over HTTP with the
// emulator's fake identity provider (helpers/fake-idp.js), the providers and the cached Engage configuration.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const jump = require('..');
const { Emulator, uniqueEmail, useEmulator } = require('./emulator');
const { FakeIdP, httpCall } = require('./helpers/fake-idp');
const { clearCounters, counters } = require('./helpers/token-api');

const ENGAGE_APP_ID = 'jump-default-engage';
const ENGAGE_API_KEY = 'jump-engage-api-key';
const CONFIG_PATH = 'GET /openid/mobile_config_and_baseurl';
const CUSTOM_PROVIDERS = {
  myopenid: { friendly_name: 'My OpenID', openid_identifier: 'https://%@.openid.example/', opx_blob: 'blob-7' },
  corp: { friendly_name: 'Corp SSO', saml_provider: 'corp-saml' },
};

const session = useEmulator();
function socialConfig(emu, overrides) {
  return emu.config({ engageAppId: ENGAGE_APP_ID, engageDomain: emu.url, storageDirectory: ':memory:', ...overrides });
}
function newClient(overrides) {
  return session.track(new jump.Client(socialConfig(session.emu, overrides)));
}
const query = (url) => new URL(url).searchParams;
const identifiersOf = async (uuid) => (await session.emu.user(uuid)).user.profiles.map((p) => p.identifier);

async function rejection(promise) {
  return promise.then((value) => assert.fail(`resolved with ${JSON.stringify(value)}`), (error) => error);
}

test('providers: the server\'s order, then the custom ones; sharing providers with Engage\'s properties', async () => {
  const emu = session.emu;
  const order = ['yahoo', 'twitter', 'facebook', 'openid'];
  await emu.admin('POST', '/emulator/engage_apps', {
    engage_app_id: 'order-app', api_key: 'order-key', providers: order, sharing_providers: ['twitter', 'facebook'],
  });
  const served = JSON.parse((await httpCall(`${emu.url}/openid/mobile_config_and_baseurl?appId=order-app&device=android`)).text);
  const client = newClient({ engageAppId: 'order-app', engageCustomProviders: CUSTOM_PROVIDERS });
  const providers = await client.providers();
  assert.deepEqual(providers.signIn.map((p) => p.name), [...order, 'corp', 'myopenid']);
  const byName = Object.fromEntries(providers.signIn.map((p) => [p.name, p]));
  for (const name of order) {
    assert.equal(byName[name].friendlyName, served.provider_info[name].friendly_name);
    assert.equal(byName[name].custom, null);
    assert.equal(byName[name].requiresInput, served.provider_info[name].requires_input === 'YES');
  }
  assert.equal(byName.openid.inputPrompt, served.provider_info.openid.input_prompt);
  assert.equal(byName.myopenid.custom, 'openid');
  assert.equal(byName.myopenid.requiresInput, true);
  assert.equal(byName.corp.custom, 'saml');
  assert.deepEqual(providers.sharing.map((p) => p.name), ['twitter', 'facebook']);
  // Engage's properties keep Engage's keys
  assert.deepEqual(providers.sharing[0].properties, served.provider_info.twitter.social_sharing_properties);
  assert.equal(providers.hideTagline, served.hide_tagline === 'YES');
});

test('custom providers: begin URLs carry the input and the provider\'s parameters', async () => {
  const emu = session.emu;
  const client = newClient({ engageCustomProviders: CUSTOM_PROVIDERS });
  const needsInput = await rejection(client.socialBegin('myopenid'));
  assert.ok(needsInput instanceof jump.ValidationError, `${needsInput}`);
  assert.ok('input' in needsInput.invalidFields);
  const begun = await client.socialBegin('myopenid', { input: 'ada' });
  const url = new URL(begun.url);
  assert.equal(url.origin, emu.url);
  assert.equal(url.pathname, '/openid/start');
  assert.equal(query(begun.url).get('openid_identifier'), 'https://ada.openid.example/');
  assert.equal(query(begun.url).get('opx_blob'), 'blob-7');
  assert.equal(query(begun.url).get('state'), begun.state);
  assert.equal(begun.completion, 'device');
  assert.equal(begun.completionPrefix, `${emu.url}/signin/device`);
  const saml = await client.socialBegin('corp');
  assert.equal(new URL(saml.url).pathname, '/saml2/sso/start');
  assert.equal(query(saml.url).get('saml_provider'), 'corp-saml');
  const unknown = await rejection(client.socialBegin('myspace'));
  assert.ok(unknown instanceof jump.InvalidArgumentError);
  assert.equal(unknown.argument, 'provider');
  await assert.rejects(client.socialBegin('corp', { forceReauth: 'yes' }), TypeError);
  await assert.rejects(client.socialBegin('corp', { input: 42 }), TypeError);
});

test('thin registration through the browser, then the same identity picked again signs the same user in', async () => {
  const emu = session.emu;
  const idp = new FakeIdP(emu);
  const email = uniqueEmail('fb');
  const client = newClient({ captureEnableThinRegistration: true });
  const begun = await client.socialBegin('facebook');
  assert.equal(new URL(begun.url).pathname, '/facebook/start');
  assert.match((await idp.open(begun.url)).title, /Facebook/);
  const url = await idp.finish(begun.url, { name: 'Ada Facebook', email });
  assert.ok(url.startsWith(begun.completionPrefix));
  assert.equal(query(url).get('state'), null); // as Engage: /signin/device carries no state
  const result = await client.socialComplete(url);
  const identity = await idp.identityByEmail('facebook', email);
  assert.equal(result.outcome, 'registered');
  assert.equal(result.isNew, true);
  assert.equal(result.provider, 'facebook');
  assert.equal(result.merged, false);
  assert.equal(result.identifier, identity.identifier);
  assert.equal(client.state().uuid, result.uuid);
  const { user } = await emu.user(result.uuid);
  assert.equal(user.email, email);
  assert.equal(user.password, null); // a social-only account
  const [linked] = client.linkedProfiles();
  assert.equal(linked.identifier, identity.identifier);
  assert.equal(linked.provider, 'facebook');
  assert.equal(linked.displayName, 'Ada Facebook');
  assert.equal(linked.domain, 'facebook.com');
  assert.match(linked.path, /^\/profiles#/);
  await client.signOut();

  const again = await client.socialBegin('facebook');
  const back = await client.socialComplete(await idp.finish(again.url, { identity: email }));
  assert.equal(back.outcome, 'signed_in');
  assert.equal(back.isNew, false);
  assert.equal(back.uuid, result.uuid);
});

test('two-step registration after the browser: RegistrationRequiredError, then registerSocial', async () => {
  const emu = session.emu;
  const idp = new FakeIdP(emu);
  const email = uniqueEmail('google');
  const client = newClient();
  const begun = await client.socialBegin('google');
  const error = await rejection(client.socialComplete(await idp.finish(begun.url, { name: 'Grace Hopper', email })));
  assert.ok(error instanceof jump.RegistrationRequiredError, `${error}`);
  assert.equal(error.provider, 'google');
  assert.equal(error.preregRecord.email, email);
  assert.equal(error.preregFields.emailAddress, email);
  assert.equal(client.isSignedIn, false);
  const result = await client.registerSocial(error.socialRegistrationToken, {
    ...error.preregRecord, givenName: 'Grace', familyName: 'Hopper',
  });
  assert.equal(result.isNew, true);
  const identity = await idp.identityByEmail('google', email);
  assert.deepEqual(await identifiersOf(result.uuid), [identity.identifier]);
  assert.deepEqual(client.linkedProfiles().map((p) => p.identifier), [identity.identifier]);
});

test('the user cancels on the provider\'s page: CancelledError with reason user_canceled', async () => {
  const idp = new FakeIdP(session.emu);
  const client = newClient({ captureEnableThinRegistration: true });
  const begun = await client.socialBegin('twitter');
  const url = await idp.finish(begun.url, { cancel: true });
  assert.equal(query(url).get('error'), 'canceled');
  const error = await rejection(client.socialComplete(url));
  assert.ok(error instanceof jump.CancelledError, `${error}`);
  assert.equal(error.reason, 'user_canceled');
  assert.equal(client.isSignedIn, false);
});

test('completion URLs that do not belong change nothing and reach no server; the right one still completes', async () => {
  const emu = session.emu;
  const idp = new FakeIdP(emu);
  const client = newClient({ captureEnableThinRegistration: true });
  const other = newClient({ captureEnableThinRegistration: true });
  const begun = await client.socialBegin('facebook');
  const url = await idp.finish(begun.url, { name: 'Bel Ong', email: uniqueEmail('belong') });
  await clearCounters(emu);
  const withState = new URL(url);
  withState.searchParams.set('state', 'x'.repeat(begun.state.length));
  const elsewhere = new URL(url);
  elsewhere.pathname = '/elsewhere';
  for (const [bad, reason] of [[withState.href, 'unknown_state'], [elsewhere.href, 'wrong_location']]) {
    const error = await rejection(client.socialComplete(bad));
    assert.ok(error instanceof jump.InvalidArgumentError, `${error}`);
    assert.equal(error.reason, reason, bad);
  }
  assert.equal((await rejection(other.socialComplete(url))).reason, 'unknown_state'); // begun by another client
  assert.deepEqual(await counters(emu), {});
  const result = await client.socialComplete(url);
  assert.equal(result.outcome, 'registered');
  assert.equal((await rejection(client.socialComplete(url))).reason, 'unknown_state'); // used
});

test('the "token" completion style: the browser is sent to the whitelisted domain with ?token=', async () => {
  const emu = session.emu;
  const idp = new FakeIdP(emu);
  const whitelisted = 'http://127.0.0.1:9/app/signed-in'; // nothing listens: the app reads the redirect itself
  const client = newClient({ engageResponseType: 'token', engageWhitelistedDomain: whitelisted, captureEnableThinRegistration: true });
  const begun = await client.socialBegin('facebook');
  assert.equal(begun.completion, 'redirect');
  assert.equal(begun.completionPrefix, whitelisted);
  const url = await idp.finish(begun.url, { name: 'Tok En', email: uniqueEmail('token') });
  assert.ok(url.startsWith(`${whitelisted}?`) && query(url).get('token'));
  assert.equal((await client.socialComplete(url)).outcome, 'registered');
  const redirect = await client.socialBegin('google', { redirectUri: 'http://127.0.0.1:9/callback?app=1' });
  assert.equal(redirect.completion, 'redirect');
  const landed = await idp.finish(redirect.url, { name: 'Re Direct', email: uniqueEmail('redirect') });
  assert.equal(query(landed).get('app'), '1');
});

test('the Engage configuration is cached with its ETag, and serves the providers when the server is gone', async () => {
  const emu = await Emulator.start(); // a private one: it is stopped below
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'jump-node-engage-'));
  try {
    const config = socialConfig(emu, { storageDirectory: storage, requestTimeoutMs: 5000, connectTimeoutMs: 2000 });
    const first = new jump.Client(config);
    assert.deepEqual(await first.loadEngageConfig(), { changed: true, fromCache: false });
    const listed = await first.providers();
    assert.equal((await counters(emu))[CONFIG_PATH], 1); // providers() used the loaded copy
    assert.deepEqual(await first.loadEngageConfig(), { changed: false, fromCache: true }); // 304
    first.close();
    await emu.admin('POST', '/emulator/engage_apps', { engage_app_id: ENGAGE_APP_ID, api_key: ENGAGE_API_KEY, providers: ['google', 'facebook'] });
    const second = new jump.Client(config);
    assert.deepEqual(await second.loadEngageConfig(), { changed: true, fromCache: false });
    const changed = await second.providers();
    assert.deepEqual(changed.signIn.map((p) => p.name), ['google', 'facebook']);
    assert.notDeepEqual(changed, listed);
    second.close();
    await emu.stop();
    const offline = new jump.Client(config);
    assert.deepEqual(await offline.providers(), changed);
    assert.deepEqual(await offline.loadEngageConfig(), { changed: false, fromCache: true });
    offline.close();
    const memory = new jump.Client({ ...config, storageDirectory: ':memory:' });
    await assert.rejects(memory.loadEngageConfig(), jump.NetworkError);
    memory.close();
  } finally {
    await emu.stop();
    fs.rmSync(storage, { recursive: true, force: true });
  }
});

test('an unknown Engage app is NotFoundError', async () => {
  await assert.rejects(newClient({ engageAppId: 'no-such-engage-app' }).loadEngageConfig(), jump.NotFoundError);
});
