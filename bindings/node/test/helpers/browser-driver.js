#!/usr/bin/env node
'use strict';
// $BROWSER for the examples that sign in through a browser (examples/node/social_loopback.js): like a real
// browser it returns at once, then (in a detached child) fills in the emulator's fake provider page over HTTP and
// lands where the provider sends it: libjump's loopback listener. DRIVER_MODE says what it does on the page:
// "create" (default: a new identity DRIVER_NAME, DRIVER_EMAIL), "identity" (continue as DRIVER_EMAIL's) or
// "cancel". It appends "landed <status> <url>" or "error <message>" to DRIVER_LOG.
//   node browser-driver.js <url>
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { FakeIdP, httpCall } = require('./fake-idp');

const url = process.argv[2];
if (process.env.DRIVER_CHILD !== '1') {
  spawn(process.execPath, [__filename, url], { env: { ...process.env, DRIVER_CHILD: '1' }, detached: true, stdio: 'ignore' }).unref();
  process.exit(0);
}

(async () => {
  const mode = process.env.DRIVER_MODE ?? 'create';
  const email = process.env.DRIVER_EMAIL ?? '';
  const page = mode === 'cancel' ? { cancel: true } : mode === 'identity' ? { identity: email }
    : { name: process.env.DRIVER_NAME ?? 'Ada Lovelace', email };
  const location = await new FakeIdP(null).finish(url, page);
  const answer = await httpCall(location);
  fs.appendFileSync(process.env.DRIVER_LOG, `landed ${answer.status} ${location}\n`);
})().catch((error) => {
  fs.appendFileSync(process.env.DRIVER_LOG, `error ${error.message}\n`);
});
