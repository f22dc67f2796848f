'use strict';
// Environments other than the main thread's: each worker_threads Worker has its own bridge (bridge.c) for its
// clients' JavaScript storage, authenticate, openUrl and log lines. A worker that ends, or is terminated while
// libjump threads wait for its JavaScript, ends cleanly: the waits are answered JUMP_E_CANCELLED, the addon's
// threads settle what is left without JavaScript, and the process goes on. Run in a child process, so that a
// crash is a failed test rather than a dead runner.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const path = require('node:path');
const { Emulator } = require('./emulator');
const { mint, newUser, tokenConfig } = require('./helpers/token-api');

const BINDING = path.resolve(__dirname, '..');
let emu;
before(async () => {
  emu = await Emulator.start();
});
after(() => emu?.stop());

function run(script, timeout = 30000) {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', script], { timeout }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? error.signal ?? 1) : 0, stdout, stderr }));
  });
}

test('a worker\'s client with JavaScript storage and log sink registers, signs in again, and ends cleanly', async () => {
  const config = emu.config({ storageDirectory: ':memory:' });
  const { code, stdout, stderr } = await run(`
    const { Worker } = require('node:worker_threads');
    const worker = new Worker(\`
      const { parentPort } = require('node:worker_threads');
      const jump = require(${JSON.stringify(BINDING)});
      const data = new Map();
      const storage = { load: (k) => data.get(k) ?? null, save: (k, d) => { data.set(k, d); }, erase: (k) => { data.delete(k); } };
      let lines = 0;
      jump.setLogCallback(() => { lines++; });
      (async () => {
        const client = new jump.Client(${JSON.stringify(config)}, { storage });
        const email = 'worker-' + Date.now() + '@example.com';
        const { uuid } = await client.registerTraditional({ email, displayName: 'Wor Ker' }, 'correct horse battery');
        client.record.set('/aboutMe', 'from a worker');
        await client.sync();
        client.close();
        const again = new jump.Client(${JSON.stringify(config)}, { storage });
        parentPort.postMessage({ uuid, restored: again.state().uuid, saved: data.size > 0, lines: lines > 0 });
      })();
    \`, { eval: true });
    worker.on('message', (message) => console.log(JSON.stringify(message)));
    worker.on('error', (error) => { console.error(error); process.exitCode = 1; });
    worker.on('exit', (exitCode) => console.log('exit ' + exitCode));
  `);
  assert.equal(code, 0, stderr);
  const [message, exit] = stdout.trim().split('\n');
  const result = JSON.parse(message);
  assert.equal(result.restored, result.uuid);
  assert.equal(result.saved, true);
  assert.equal(result.lines, true);
  assert.equal(exit, 'exit 0');
});

test('a worker terminated while libjump waits for its JavaScript (identify, loopback) ends; the process goes on', async () => {
  const user = await newUser(emu);
  const token = await mint(emu, user);
  const social = emu.config({ engageAppId: 'jump-default-engage', engageDomain: emu.url, storageDirectory: ':memory:' });
  const { code, stdout, stderr } = await run(`
    const { Worker } = require('node:worker_threads');
    const worker = new Worker(\`
      const { parentPort } = require('node:worker_threads');
      const jump = require(${JSON.stringify(BINDING)});
      const identifying = new jump.Client(${JSON.stringify(tokenConfig(emu, { storageDirectory: ':memory:' }))});
      const looping = new jump.Client(${JSON.stringify(social)});
      let asked = 0;
      identifying.identifyExternalUser('app-w', () => { asked++; return new Promise(() => {}); }).catch(() => {});
      looping.socialSignInLoopback('facebook', () => { asked++; return new Promise(() => {}); }).catch(() => {});
      const waiting = () => asked === 2 ? parentPort.postMessage('waiting') : setTimeout(waiting, 10);
      waiting();
    \`, { eval: true });
    worker.on('message', async () => {
      await worker.terminate();
      // the main thread's own client still works, with a token minted before
      const jump = require(${JSON.stringify(BINDING)});
      const client = new jump.Client(${JSON.stringify(tokenConfig(emu, { storageDirectory: ':memory:' }))});
      const result = await client.signInWithToken(${JSON.stringify(token)});
      client.close();
      console.log('terminated; then ' + result.userId);
    });
    worker.on('error', (error) => { console.error(error); process.exitCode = 1; });
  `);
  assert.equal(code, 0, stderr);
  assert.equal(stdout.trim(), `terminated; then ${user}`);
});
