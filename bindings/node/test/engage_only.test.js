'use strict';
// Engage-only mode (no captureDomain): a social sign-in's outcome is "authenticated" with the Engage token, and
// with a token URL (setTokenUrl, or engageTokenUrl) the app's backend receives that token and its answer comes
// back as tokenUrlResponse. The backend here is a small HTTP server of the test's own.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const jump = require('..');
const { uniqueEmail, useEmulator } = require('./emulator');
const { FakeIdP } = require('./helpers/fake-idp');

const session = useEmulator();
let backend;
let received = [];

before(async () => {
  // The app's token URL: /token answers 200 with what it got and a session cookie; anything else 404.
  backend = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url !== '/token') {
        response.writeHead(404).end('{}');
        return;
      }
      const token = new URLSearchParams(body).get('token');
      received.push(token);
      response.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'app_session=s1; Path=/' });
      response.end(JSON.stringify({ got_token: Boolean(token) }));
    });
  });
  await new Promise((resolve) => backend.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise((resolve) => backend.close(resolve)));

function engageOnly(overrides) {
  const emu = session.emu;
  return session.track(new jump.Client({
    engageAppId: 'jump-default-engage', engageDomain: emu.url, storageDirectory: ':memory:', requestTimeoutMs: 10000, ...overrides,
  }));
}
const backendUrl = (path) => `http://127.0.0.1:${backend.address().port}${path}`;

test('Engage only: the browser sign-in is "authenticated" with the token, profile and device token', async () => {
  received = [];
  const idp = new FakeIdP(session.emu);
  const email = uniqueEmail('eng');
  const client = engageOnly();
  const begun = await client.socialBegin('google');
  const result = await client.socialComplete(await idp.finish(begun.url, { name: 'Eng Age', email }));
  assert.equal(result.outcome, 'authenticated');
  assert.equal(result.provider, 'google');
  assert.equal(typeof result.token, 'string');
  assert.ok(result.deviceToken);
  assert.equal(result.profile.email, email); // Engage's profile, with Engage's keys
  assert.equal(result.tokenUrlResponse, null);
  assert.deepEqual(received, []);
});

test('setTokenUrl: the token is POSTed to the app\'s backend and its answer, of any status, comes back', async () => {
  received = [];
  const idp = new FakeIdP(session.emu);
  const client = engageOnly();
  client.setTokenUrl(backendUrl('/token'));
  const begun = await client.socialBegin('facebook');
  const result = await client.socialComplete(await idp.finish(begun.url, { name: 'To Ken', email: uniqueEmail('tok') }));
  const answer = result.tokenUrlResponse;
  assert.equal(answer.status, 200);
  assert.deepEqual(JSON.parse(answer.body), { got_token: true });
  assert.deepEqual(answer.cookies.map((c) => [c.name, c.value, c.path]), [['app_session', 's1', '/']]);
  assert.ok(answer.headers.some(([name]) => name.toLowerCase() === 'content-type'));
  assert.deepEqual(received, [result.token]);
  const native = await client.socialSignInNative('google', JSON.stringify({ email: uniqueEmail('nat'), display_name: 'Na Tive' }));
  assert.equal(native.tokenUrlResponse.status, 200);

  client.setTokenUrl(backendUrl('/elsewhere'));
  const missing = await client.socialSignInNative('google', JSON.stringify({ email: uniqueEmail('nat2'), display_name: 'Na Tive' }));
  assert.equal(missing.tokenUrlResponse.status, 404);
  client.setTokenUrl(null);
  const plain = await client.socialSignInNative('google', JSON.stringify({ email: uniqueEmail('nat3'), display_name: 'Na Tive' }));
  assert.equal(plain.tokenUrlResponse, null);
  assert.throws(() => client.setTokenUrl('ftp://example.com/token'), jump.InvalidArgumentError);
  assert.throws(() => client.setTokenUrl('http://example.com/token'), jump.InvalidArgumentError); // http: loopback only
  assert.throws(() => client.setTokenUrl(42), TypeError);
});

test('engageTokenUrl in the config is where setTokenUrl starts; an unreachable one fails the sign-in', async () => {
  const client = engageOnly({ engageTokenUrl: backendUrl('/token') });
  const result = await client.socialSignInNative('google', JSON.stringify({ email: uniqueEmail('cfg'), display_name: 'Con Fig' }));
  assert.equal(result.tokenUrlResponse.status, 200);
  const closed = http.createServer();
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = closed.address().port;
  await new Promise((resolve) => closed.close(resolve));
  client.setTokenUrl(`http://127.0.0.1:${port}/token`);
  await assert.rejects(client.socialSignInNative('google', JSON.stringify({ email: uniqueEmail('off'), display_name: 'Off Line' })),
    jump.NetworkError);
});
