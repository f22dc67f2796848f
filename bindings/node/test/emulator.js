'use strict';
// Test support: one real jump-emulator process per test file ($JUMP_EMULATOR, else build/bin/jump-emulator),
// its admin API, and client configs pointing at it. No mocks.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { randomUUID } = require('node:crypto');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PASSWORD = 'correct horse battery';
const SIGN_IN_PATH = '/oauth/auth_native_traditional';

class Emulator {
  constructor(url, child) {
    this.url = url.replace(/\/$/, '');
    this.child = child;
  }

  /** Starts an emulator on a free port with an in-memory database; resolves once it printed its URL. */
  static start() {
    const binary = process.env.JUMP_EMULATOR || path.join(ROOT, 'build', 'bin', 'jump-emulator');
    const child = spawn(binary, ['--port', '0', '--db', ':memory:', '--password-hash-cost', '4'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('jump-emulator did not print its URL within 30 s'));
      }, 30000);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      const lines = readline.createInterface({ input: child.stdout });
      lines.once('line', (line) => {
        clearTimeout(timer);
        // Keep draining stdout (the readline interface keeps reading) so the emulator never blocks.
        if (!line.startsWith('http')) reject(new Error(`jump-emulator printed ${JSON.stringify(line)}`));
        else resolve(new Emulator(line.trim(), child));
      });
    });
  }

  async stop() {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }

  async admin(method, urlPath, body) {
    const response = await fetch(this.url + urlPath, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${urlPath} -> ${response.status}: ${text}`);
    return text.trim() ? JSON.parse(text) : {};
  }

  /** Users, faults, counters and clock as at start-up. */
  async reset() {
    await this.admin('POST', '/emulator/reset');
    await this.admin('DELETE', '/emulator/faults');
  }

  /** Delays the next request to path by ms (then it is answered normally). */
  delay(urlPath, ms, count = 1) {
    return this.admin('POST', '/emulator/faults', { kind: 'delay', path: urlPath, delay_ms: ms, count });
  }

  user(uuid) {
    return this.admin('GET', `/emulator/users/${uuid}`);
  }

  /** A client config for this emulator; storageDirectory a fresh temporary directory unless given. */
  config(overrides = {}) {
    return {
      captureDomain: this.url,
      captureClientId: 'jump-default-client',
      captureAppId: 'default-app',
      captureFlowName: 'standard',
      captureLocale: 'en-US',
      captureFlowDomain: this.url,
      storageDirectory: fs.mkdtempSync(path.join(os.tmpdir(), 'jump-node-test-')),
      requestTimeoutMs: 10000,
      ...overrides,
    };
  }
}

function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomUUID().slice(0, 12)}@example.com`;
}

/** Registers (and signs in) a new account through client; resolves to {email, password, uuid}. */
async function registerUser(client) {
  const email = uniqueEmail();
  const result = await client.registerTraditional(
    { email, displayName: 'Ada L', givenName: 'Ada', familyName: 'Lovelace' },
    PASSWORD,
  );
  return { email, password: PASSWORD, uuid: result.uuid };
}

/**
 * The shared set-up of a test file: one emulator for the file (reset before each test) and the clients it
 * made, closed at the end. `session.emu` is the emulator; `session.track(client)` returns client (`untrack` forgets it).
 */
function useEmulator() {
  const { before, after, beforeEach } = require('node:test');
  const clients = [];
  const session = {
    emu: undefined,
    track(client) {
      clients.push(client);
      return client;
    },
    untrack(client) {
      clients.splice(clients.indexOf(client), 1);
    },
  };
  before(async () => {
    session.emu = await Emulator.start();
  });
  after(async () => {
    for (const client of clients) client.close();
    await session.emu?.stop();
  });
  beforeEach(() => session.emu.reset());
  return session;
}

module.exports = { Emulator, PASSWORD, ROOT, SIGN_IN_PATH, registerUser, uniqueEmail, useEmulator };
