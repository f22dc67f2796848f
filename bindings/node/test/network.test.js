'use strict';
// The network keys through the Node.js binding (docs/config.md): `proxy` sends every request through a forward
// proxy (a counting one here, in this process), `""` means none, and a proxy URL of another scheme is refused
// when the client is made. The Python suite (test_tls_proxy.py) covers the TLS keys against a TLS front.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const jump = require('..');
const { registerUser, useEmulator } = require('./emulator');

const session = useEmulator();
let proxy;
const seen = [];

before(async () => {
  // A forward proxy: requests arrive in absolute form (GET http://host:port/path) and are sent on as they came.
  proxy = http.createServer((request, response) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    const upstream = http.request(request.url, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  proxy.listen(0, '127.0.0.1');
  await new Promise((resolve) => proxy.once('listening', resolve));
});

after(() => proxy.close());

function newClient(overrides) {
  return session.track(new jump.Client(session.emu.config(overrides)));
}

test('with proxy set, every request of a sign-in goes through it', async () => {
  seen.length = 0;
  const client = newClient({ proxy: `http://127.0.0.1:${proxy.address().port}` });
  const { uuid } = await registerUser(client);
  assert.equal(client.state().uuid, uuid);
  assert.ok(seen.some((line) => line.startsWith('POST /oauth/')), `the proxy saw: ${seen.join(', ')}`);
  assert.ok(seen.some((line) => line.startsWith('GET /widget_data/flows/')), `the proxy saw: ${seen.join(', ')}`);
});

test('with proxy "", no request goes through a proxy', async () => {
  seen.length = 0;
  const client = newClient({ proxy: '' });
  await registerUser(client);
  assert.equal(client.isSignedIn, true);
  assert.deepEqual(seen, []);
});

test('a proxy URL of another scheme is InvalidArgumentError naming the key', () => {
  assert.throws(() => newClient({ proxy: 'ftp://127.0.0.1:21' }), (error) => {
    assert.ok(error instanceof jump.InvalidArgumentError, `${error.name}: ${error.message}`);
    assert.match(error.message, /proxy/);
    return true;
  });
});
