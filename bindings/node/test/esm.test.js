'use strict';
// Both entry points of package.json "exports": require('libjump') gives index.js, import gives index.mjs, and
// they are the same objects (one addon, one set of classes). 'libjump' resolves through "exports" here because
// this file is inside the package (Node's self-reference), as it does in an app's node_modules.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { Emulator } = require('./emulator');

let emu;
before(async () => {
  emu = await Emulator.start();
});
after(() => emu?.stop());

test("require('libjump') is the CommonJS entry (index.js)", () => {
  assert.equal(require.resolve('libjump'), path.join(__dirname, '..', 'index.js'));
  assert.equal(require('libjump'), require('..'));
});

test("import('libjump') names every export of index.js, the same objects, and a default", async () => {
  const cjs = require('libjump');
  const esm = await import('libjump');
  const named = Object.keys(esm).filter((name) => name !== 'default').sort();
  assert.deepEqual(named, Object.keys(cjs).sort());
  for (const name of named) assert.equal(esm[name], cjs[name], name);
  assert.equal(esm.default, cjs);
  for (const name of ['Client', 'UserRecord', 'JumpError', 'AbortError', 'BadCredentialsError', 'libraryVersion']) {
    assert.ok(named.includes(name), `no named export ${name}`);
  }
});

test('an ES module importing libjump signs in, gets err.code and an AbortError', async () => {
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(__dirname, 'fixtures', 'esm-client.mjs'), emu.url], { timeout: 30000 },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)));
  });
  assert.deepEqual(JSON.parse(stdout), {
    defaultIsNamespace: true,
    wrong: { badCredentials: true, jump: true, code: 'JUMP_E_BAD_CREDENTIALS' },
    aborted: { abortError: true, name: 'AbortError', code: 'ABORT_ERR' },
  });
});
