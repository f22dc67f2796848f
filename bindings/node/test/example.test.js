'use strict';
// examples/node/quickstart.js runs here, against a real emulator, so it cannot rot.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { Emulator, ROOT } = require('./emulator');

let emu;
before(async () => {
  emu = await Emulator.start();
});
after(() => emu?.stop());

test('examples/node/quickstart.js signs in, edits, syncs and survives a restart', async () => {
  const script = path.join(ROOT, 'examples', 'node', 'quickstart.js');
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [script],
      { env: { ...process.env, JUMP_EMULATOR_URL: emu.url }, timeout: 30000 },
      (error, out, err) => resolve({ code: error ? (error.code ?? 1) : 0, stdout: out, stderr: err }),
    );
  });
  assert.equal(code, 0, `quickstart failed:\n${stdout}\n${stderr}`);
  assert.match(stdout, /still signed in as [0-9a-f-]{36}/);
  assert.match(stdout, /synced \["\/aboutMe"\]/);
  assert.equal(stdout.trimEnd().split('\n').at(-1), 'quickstart OK');
});
