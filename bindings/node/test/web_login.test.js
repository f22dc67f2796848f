'use strict';
// Web login: the token a login page leaves in its cookies or title, taken for the page's origin (useWebLogin)
// and sent by request() there, as a bearer token.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');
const { useEmulator, uniqueEmail } = require('./emulator');

const session = useEmulator();

/** Logs in on the emulator's web login page as a browser would: its Set-Cookie lines and its title. */
async function webLogin(email, password) {
  const response = await fetch(`${session.emu.url}/weblogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  const page = await response.text();
  assert.equal(response.status, 200);
  return { setCookies: response.headers.getSetCookie().join('\n'), title: /<title>([^<]*)<\/title>/.exec(page)[1] };
}

test('useWebLogin takes the token from Set-Cookie lines or the title; request() sends it to that origin', async () => {
  const email = uniqueEmail('web');
  await session.emu.admin('POST', '/emulator/users', { email, password: 'correct horse 1' });
  const { setCookies, title } = await webLogin(email, 'correct horse 1');
  assert.match(setCookies, /oauth_token=/);
  const client = session.track(new jump.Client(session.emu.config({ storageDirectory: ':memory:' })));
  const fromCookies = client.useWebLogin(`${session.emu.url}/weblogin`, { cookies: setCookies });
  const fromTitle = client.useWebLogin(`${session.emu.url}/weblogin`, { title });
  assert.equal(typeof fromCookies, 'string');
  assert.equal(fromCookies, fromTitle);
  const me = await client.request('GET', `${session.emu.url}/weblogin/me`);
  assert.equal(me.status, 200);
  assert.equal(JSON.parse(me.body).email, email);
  assert.throws(() => client.useWebLogin(`${session.emu.url}/weblogin`, { cookies: 'other=1', title: 'Welcome' }),
    jump.NotFoundError);
  // https, or plain http on a loopback host only
  assert.throws(() => client.useWebLogin('http://example.com/login', { cookies: setCookies }), jump.InvalidArgumentError);
  assert.throws(() => client.useWebLogin(`${session.emu.url}/weblogin`, { cookies: 42 }), TypeError);
});
