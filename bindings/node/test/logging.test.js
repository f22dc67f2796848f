'use strict';
// setLogCallback: libjump's log lines (one process-wide slot) to a function or a console, filtered by level
// before they reach JavaScript, delivered on the event loop; null stops them. The binding's own line for a
// failing host storage goes there too. Each test runs in a child process: the slot is the process's.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { Emulator } = require('./emulator');

const BINDING = path.resolve(__dirname, '..');
let emu;
before(async () => {
  emu = await Emulator.start();
});
after(() => emu?.stop());

/** Runs script (with `jump`, `config` and `done(value)` defined) in a child; resolves to done's value. */
function child(script) {
  const program = `
    const jump = require(${JSON.stringify(BINDING)});
    const config = ${JSON.stringify(emu.config({ storageDirectory: ':memory:' }))};
    const done = (value) => { console.log(JSON.stringify(value)); };
    (async () => { ${script} })().catch((error) => { console.error(error); process.exitCode = 1; });
  `;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', program], { timeout: 30000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve({ value: JSON.parse(stdout.trim().split('\n').at(-1)), stdout, stderr });
    });
  });
}

test('a function receives the redacted lines of a sign-in, on the loop; null stops them', async () => {
  const { value } = await child(`
    const lines = [];
    jump.setLogCallback((line) => lines.push(line));
    const client = new jump.Client(config);
    await client.signIn('nobody@example.com', 'wrong password 1').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen = lines.length;
    jump.setLogCallback(null);
    await client.signIn('nobody@example.com', 'wrong password 2').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.close();
    done({ seen, after: lines.length, lines });
  `);
  assert.ok(value.seen > 0);
  assert.equal(value.after, value.seen, 'lines arrived after setLogCallback(null)');
  assert.ok(value.lines.every((l) => l.kind === 'log' && l.version === 1 && typeof l.message === 'string'));
  assert.ok(value.lines.some((l) => l.message.includes('/oauth/auth_native_traditional')), JSON.stringify(value.lines));
  assert.ok(!JSON.stringify(value.lines).includes('wrong password'), 'a password reached the log');
});

test('level filters before JavaScript: warning passes no debug line; a console gets the lines by level', async () => {
  const { value } = await child(`
    const lines = [];
    const calls = [];
    jump.setLogCallback((line) => lines.push(line.level), { level: 'warning' });
    const client = new jump.Client({ ...config, emulatorHost: new URL(config.captureDomain).host }); // warns once
    await client.signIn('nobody@example.com', 'wrong password 1').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    const fake = { debug: (m) => calls.push(['debug', m]), info: (m) => calls.push(['info', m]),
                   warn: (m) => calls.push(['warn', m]), error: (m) => calls.push(['error', m]) };
    jump.setLogCallback(fake, { level: 'debug' });
    await client.signIn('nobody@example.com', 'wrong password 2').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.close();
    jump.setLogCallback(null);
    done({ lines, calls });
  `);
  assert.ok(value.lines.length > 0 && value.lines.every((level) => level === 'warning' || level === 'error'), JSON.stringify(value.lines));
  assert.ok(value.calls.some(([method]) => method === 'debug'));
  assert.ok(value.calls.every(([, message]) => message.startsWith('libjump: ')));
});

test('a throwing callback is an uncaught exception on the next tick; the lines go on', async () => {
  const { value } = await child(`
    const errors = [];
    process.on('uncaughtException', (error) => errors.push(error.message));
    let n = 0;
    jump.setLogCallback(() => { n++; throw new Error('sink broke ' + n); });
    const client = new jump.Client(config);
    await client.signIn('nobody@example.com', 'wrong password 1').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.close();
    jump.setLogCallback(null);
    done({ n, errors: errors.length });
  `);
  assert.ok(value.n > 1, 'the lines stopped after the first throw');
  assert.equal(value.errors, value.n);
});

test('a failing host storage function is reported as an error line naming the operation and key', async () => {
  const { value } = await child(`
    const lines = [];
    jump.setLogCallback((line) => lines.push(line), { level: 'error' });
    const storage = { load() { throw new Error('the keychain is locked'); }, save() {}, erase() {} };
    const client = new jump.Client(config, { storage });
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.close();
    jump.setLogCallback(null);
    done(lines.map((l) => l.message));
  `);
  assert.ok(value.some((m) => /host storage load\("session-.*"\) failed: the keychain is locked/.test(m)), JSON.stringify(value));
});

test('setLogCallback refuses what is neither a function nor a console, and an unknown level', async () => {
  const { value } = await child(`
    const refused = [];
    for (const args of [[42], ['console'], [{ warn() {} }], [() => {}, { level: 'verbose' }], [() => {}, 'debug']]) {
      try { jump.setLogCallback(...args); refused.push(false); } catch (error) { refused.push(error instanceof TypeError); }
    }
    done(refused);
  `);
  assert.deepEqual(value, [true, true, true, true, true]);
});
