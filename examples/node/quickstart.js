#!/usr/bin/env node
// libjump quickstart (Node.js): register, sign in, edit and sync the record, survive a restart (a second client
// on the same storageDirectory is still signed in, with the edit), sign out.
//
// Run against a local emulator (build the addon first: make build/node/jump.node):
//
//     scripts/with-emulator.sh node examples/node/quickstart.js
//
// Environment: JUMP_EMULATOR_URL (the emulator's base URL, required). Ends with "quickstart OK".
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { once } = require('node:events');
const { randomUUID } = require('node:crypto');

let jump;
try {
  jump = require('libjump'); // installed (npm install libjump-<version>.tgz)
} catch {
  jump = require(path.join(__dirname, '..', '..', 'bindings', 'node')); // the source tree
}

const step = (text) => console.log(`-> ${text}`);

async function main() {
  const base = (process.env.JUMP_EMULATOR_URL || '').replace(/\/$/, '');
  if (!base) {
    console.error('JUMP_EMULATOR_URL is not set (run through scripts/with-emulator.sh)');
    return 2;
  }
  console.log(`libjump ${jump.libraryVersion}; emulator at ${base}`);
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'jump-quickstart-'));
  const config = {
    captureDomain: base,
    captureClientId: 'jump-default-client',
    captureAppId: 'default-app',
    captureFlowName: 'standard',
    captureFlowDomain: base,
    captureLocale: 'en-US',
    storageDirectory: storage, // where the session is saved: the restart below finds it there
  };
  const email = `quickstart-${randomUUID().slice(0, 10)}@example.com`;
  const password = 'quickstart-secret';
  try {
    // 1. Register an account (the emulator starts empty), then sign out and sign in with it.
    let client = new jump.Client(config);
    client.on('event', (event) => console.log(`   event: ${event.event}`));
    step(`register ${email}`);
    const registered = await client.registerTraditional({ email, displayName: 'Quick Start', givenName: 'Quick' }, password);
    await client.signOut();

    step('sign in with a wrong password');
    try {
      await client.signIn(email, 'wrong password');
      throw new Error('a wrong password signed in');
    } catch (error) {
      if (error.code !== 'JUMP_E_BAD_CREDENTIALS') throw error;
      console.log(`   refused: ${error.name} (${error.code})`);
    }

    step('sign in');
    const signedIn = once(client, 'signed_in');
    const result = await client.signIn(email, password);
    await signedIn;
    if (result.uuid !== registered.uuid) throw new Error('signed in as someone else');
    console.log(`   signed in as ${result.uuid} (new account: ${result.isNew})`);

    // 2. Edit the record locally, then sync it to the server.
    step('edit the record and sync');
    client.record.set('/aboutMe', 'Written by the Node.js quickstart');
    console.log(`   unsynced: ${JSON.stringify(client.record.changes().changed)}`);
    const synced = await client.sync();
    console.log(`   synced ${JSON.stringify(synced.changed)} in ${synced.requests} request(s)`);

    // 3. "Restart": close the client and make a new one on the same storage directory.
    step('restart');
    client.record.set('/givenName', 'Quickly'); // an unsynced edit: saved with the session, it survives too
    client.close();
    client = new jump.Client(config);
    if (!client.isSignedIn) throw new Error('the session did not survive the restart');
    console.log(`   still signed in as ${client.state().uuid}`);
    console.log(`   aboutMe: ${client.record.get('/aboutMe')}; givenName (unsynced): ${client.record.get('/givenName')}`);
    await client.sync();

    // 4. Fetch the record again from the server, then sign out.
    await client.fetchRecord();
    if (client.record.get('/givenName') !== 'Quickly') throw new Error('the edit made before the restart was lost');
    step('sign out');
    await client.signOut();
    client.close();
    console.log('quickstart OK');
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
    console.error(`quickstart failed: ${error.stack || error}`);
    process.exitCode = 1;
  },
);
