#!/usr/bin/env node
// A backend-issued session (Node.js): the app's backend mints a sign-in token for its own user, the app makes
// that user the signed-in one (identifyExternalUser), then sends authorized requests with the session's bearer
// token, which libjump refreshes as needed; a restart keeps the session; sign-out revokes it.
//
// Run against a local emulator (build the addon first: make build/node/jump.node), which plays the token API:
//
//     scripts/with-emulator.sh node examples/node/sign_in_token.js
//
// Environment: JUMP_EMULATOR_URL (the emulator's base URL, required); JUMP_TEAM_API_KEY (the backend's API key,
// default the emulator's "jump-team-key"). Ends with "sign-in token OK".
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');

let jump;
try {
  jump = require('libjump'); // installed (npm install libjump-<version>.tgz)
} catch {
  jump = require(path.join(__dirname, '..', '..', 'bindings', 'node')); // the source tree
}

const step = (text) => console.log(`-> ${text}`);

/** The app's backend: it knows its users by its own ids and asks the token API for their sign-in tokens. */
class Backend {
  #users = new Map(); // the app's user id -> the token API's user_id

  constructor(base, apiKey) {
    this.base = base;
    this.apiKey = apiKey;
  }

  async #api(method, urlPath, body) {
    const response = await fetch(this.base + urlPath, {
      method,
      headers: { 'x-jump-api-key': this.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${await response.text()}`);
    return response.json();
  }

  /** A fresh sign-in token for the app's user (made on first use). */
  async signInToken(appUserId) {
    if (!this.#users.has(appUserId)) {
      this.#users.set(appUserId, (await this.#api('POST', '/v2/user', { client_user_id: appUserId })).user_id);
    }
    return (await this.#api('POST', `/v2/user/${this.#users.get(appUserId)}/sign_in_token`)).sign_in_token;
  }
}

async function main() {
  const base = (process.env.JUMP_EMULATOR_URL || '').replace(/\/$/, '');
  if (!base) {
    console.error('JUMP_EMULATOR_URL is not set (run through scripts/with-emulator.sh)');
    return 2;
  }
  const backend = new Backend(base, process.env.JUMP_TEAM_API_KEY || 'jump-team-key');
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'jump-sign-in-token-'));
  const config = { signInTokenAuthBaseUrl: base, signInTokenApiBaseUrl: base, storageDirectory: storage };
  const appUser = `app-user-${randomUUID().slice(0, 8)}`;
  // identify calls this only when the signed-in user is not the app's: on the event loop, while libjump waits
  const authenticate = (externalUserId) => backend.signInToken(externalUserId);
  try {
    step('what a sign-in token says, without using it');
    const info = jump.decodeSignInToken(await backend.signInToken(appUser));
    console.log(`   user ${info.userId} (${info.environment}, ${info.region})`);

    step(`identify ${appUser}`);
    let client = new jump.Client(config);
    client.on('status_changed', (event) => console.log(`   event: status_changed (signed in: ${event.status.signedIn})`));
    const identified = await client.identifyExternalUser(appUser, authenticate);
    console.log(`   action: ${identified.action}; user ${identified.userId}`);
    if (identified.userId !== info.userId) throw new Error('signed in as someone else');

    step('authorized requests with the session');
    const profile = `/v2/user/${identified.userId}/profile`;
    const put = await client.request('PUT', profile, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ theme: 'dark' }),
    });
    const got = await client.request('GET', profile);
    console.log(`   PUT ${put.status}, GET ${got.status}: ${JSON.stringify(JSON.parse(got.body).data)}`);
    const credentials = await client.credentials(60);
    console.log(`   credential: ${credentials.kind}, ${credentials.expiresIn} s left`);

    step('restart');
    client.close();
    client = new jump.Client(config);
    console.log(`   still signed in as ${client.status().userId}`);
    const again = await client.identifyExternalUser(appUser, authenticate);
    console.log(`   identify again: ${again.action}`); // "none": the same user, and no call to the backend

    step('sign out');
    await client.signOut();
    console.log(`   signed in: ${client.status().signedIn}`);
    client.close();
    console.log('sign-in token OK');
    return 0;
  } finally {
    fs.rmSync(storage, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`sign-in token failed: ${error.stack || error}`);
    process.exitCode = 1;
  },
);
