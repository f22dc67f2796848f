'use strict';
// The examples of examples/node run here, against a real emulator, so they cannot rot: the quickstart, a
// sign-in-token session, and a loopback social sign-in whose "system browser" is $BROWSER, a driver that fills in
// the fake provider's page over HTTP (helpers/browser-driver.js).
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Emulator, ROOT, uniqueEmail } = require('./emulator');

const EXAMPLES = path.join(ROOT, 'examples', 'node');
const DRIVER = path.join(__dirname, 'helpers', 'browser-driver.js');

let emu;
before(async () => {
  emu = await Emulator.start();
});
after(() => emu?.stop());

function runExample(name, args = [], env = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(EXAMPLES, name), ...args],
      { env: { ...process.env, JUMP_EMULATOR_URL: emu.url, ...env }, timeout: 60000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

/** The environment of a browser that does `driver` (DRIVER_MODE, DRIVER_NAME, DRIVER_EMAIL) on the page. */
function browser(driver) {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jump-browser-')), 'browser.log');
  return { env: { BROWSER: `${process.execPath} ${DRIVER} %s`, DRIVER_LOG: log, ...driver }, log };
}

/** The driver's log once it has a line (it writes after landing, maybe after the example ended). */
async function driverLog(log) {
  for (let i = 0; i < 100 && !fs.existsSync(log); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '(the browser never ran)';
}

test('examples/node/quickstart.js signs in, edits, syncs and survives a restart', async () => {
  const { code, stdout, stderr } = await runExample('quickstart.js');
  assert.equal(code, 0, `quickstart failed:\n${stdout}\n${stderr}`);
  assert.match(stdout, /still signed in as [0-9a-f-]{36}/);
  assert.match(stdout, /synced \["\/aboutMe"\]/);
  assert.equal(stdout.trimEnd().split('\n').at(-1), 'quickstart OK');
});

test('examples/node/sign_in_token.js: identify, authorized requests, a restart, sign-out', async () => {
  const { code, stdout, stderr } = await runExample('sign_in_token.js');
  assert.equal(code, 0, `sign_in_token failed:\n${stdout}\n${stderr}`);
  assert.match(stdout, /action: signed_in; user [0-9a-f-]{36}/);
  assert.match(stdout, /PUT 200, GET 200: \{"theme":"dark"\}/);
  assert.match(stdout, /still signed in as [0-9a-f-]{36}/);
  assert.match(stdout, /identify again: none/);
  assert.match(stdout, /signed in: false/);
  assert.equal(stdout.trimEnd().split('\n').at(-1), 'sign-in token OK');
});

test('examples/node/social_loopback.js with thin registration: the browser lands on the listener', async () => {
  const email = uniqueEmail('ex-thin');
  const { env, log } = browser({ DRIVER_NAME: 'Ex Ample', DRIVER_EMAIL: email });
  const { code, stdout, stderr } = await runExample('social_loopback.js', ['--thin-registration'], env);
  assert.equal(code, 0, `${stdout}\n${stderr}\n${await driverLog(log)}`);
  assert.match(stdout, /providers: facebook, google, twitter/);
  assert.match(stdout, /outcome: registered/);
  assert.ok(stdout.includes(`email: ${email}`), stdout);
  assert.match(stdout, /linked: facebook https:\/\/facebook\.example\//);
  assert.match(await driverLog(log), /^landed 200 http:\/\/127\.0\.0\.1:/);
  assert.equal(stdout.trimEnd().split('\n').at(-1), 'social sign-in OK');
});

test('examples/node/social_loopback.js two-step: it registers with what the provider told', async () => {
  const email = uniqueEmail('ex-two');
  const { env, log } = browser({ DRIVER_NAME: 'Two Stepper', DRIVER_EMAIL: email });
  const { code, stdout, stderr } = await runExample('social_loopback.js', ['--provider', 'google'], env);
  assert.equal(code, 0, `${stdout}\n${stderr}\n${await driverLog(log)}`);
  assert.match(stdout, /no account has this google identity yet/);
  assert.match(stdout, /outcome: registered/);
  const { users } = await emu.admin('GET', '/emulator/users');
  const user = users.find((u) => u.email === email);
  assert.deepEqual([user.givenName, user.familyName], ['Two', 'Stepper']);
});

test('examples/node/social_loopback.js: cancelled on the provider\'s page, it says so and fails', async () => {
  const { env } = browser({ DRIVER_MODE: 'cancel' });
  const { code, stdout } = await runExample('social_loopback.js', [], env);
  assert.equal(code, 1);
  assert.match(stdout, /sign-in cancelled on the provider's page/);
});
