#!/usr/bin/env node
// Social sign-in from a command-line app (Node.js): the system browser and a loopback receiver (RFC 8252).
// libjump listens on 127.0.0.1, openUrl hands the provider's sign-in page to the browser, and the sign-in completes
// when the browser comes back to the listener. A new user is registered: by the server at once (thin
// registration), or here with what the provider told (two-step registration).
//
// Run against a local emulator (build the addon first: make build/node/jump.node), where the "provider" is the
// emulator's fake identity provider page (pick or create an identity there):
//
//     scripts/with-emulator.sh node examples/node/social_loopback.js [--provider facebook] [--thin-registration]
//
// Environment: JUMP_EMULATOR_URL (the emulator's base URL, required); BROWSER (the browser command, "%s" standing
// for the URL; else xdg-open or open). Ends with "social sign-in OK".
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

let jump;
try {
  jump = require('libjump'); // installed (npm install libjump-<version>.tgz)
} catch {
  jump = require(path.join(__dirname, '..', '..', 'bindings', 'node')); // the source tree
}

/** libjump's openUrl: hands the URL to the system browser (and shows it, in case none opens). */
function openInBrowser(url) {
  console.log(`Opening your browser to sign in. If nothing opens, visit:\n  ${url}`);
  const command = process.env.BROWSER
    ? process.env.BROWSER.split(' ').map((part) => part.replace('%s', url))
    : [process.platform === 'darwin' ? 'open' : 'xdg-open', url];
  if (process.env.BROWSER && !process.env.BROWSER.includes('%s')) command.push(url);
  const browser = spawn(command[0], command.slice(1), { stdio: 'ignore', detached: true });
  browser.on('error', () => console.log('(no browser could be started: open the URL above yourself)'));
  browser.unref();
}

/** Two-step registration: what the provider told, the missing names made from the display name. */
function completeRegistration(error) {
  const attributes = { ...error.preregRecord };
  const [given, ...family] = String(attributes.displayName ?? 'New User').split(' ');
  attributes.givenName ??= given;
  attributes.familyName ??= family.join(' ') || given;
  console.log(`   no account has this ${error.provider} identity yet: registering ${attributes.email ?? '(no email)'}`);
  return attributes;
}

async function main(args) {
  const base = (process.env.JUMP_EMULATOR_URL || '').replace(/\/$/, '');
  if (!base) {
    console.error('JUMP_EMULATOR_URL is not set (run through scripts/with-emulator.sh)');
    return 2;
  }
  const provider = args.includes('--provider') ? args[args.indexOf('--provider') + 1] : 'facebook';
  const client = new jump.Client({
    captureDomain: base,
    captureClientId: 'jump-default-client',
    captureAppId: 'default-app',
    captureFlowName: 'standard',
    captureFlowDomain: base,
    engageAppId: 'jump-default-engage',
    engageDomain: base,
    captureEnableThinRegistration: args.includes('--thin-registration'),
    storageDirectory: ':memory:',
  });
  try {
    const providers = await client.providers();
    console.log(`providers: ${providers.signIn.map((p) => p.name).join(', ')}`);
    let outcome;
    try {
      outcome = (await client.socialSignInLoopback(provider, openInBrowser, { timeoutMs: 120000 })).outcome;
    } catch (error) {
      if (error instanceof jump.RegistrationRequiredError) {
        await client.registerSocial(error.socialRegistrationToken, completeRegistration(error));
        outcome = 'registered';
      } else if (error instanceof jump.CancelledError && error.reason === 'user_canceled') {
        console.log("sign-in cancelled on the provider's page");
        return 1;
      } else if (error instanceof jump.MergeRequiredError) {
        console.log(`this email already has an account; sign in with ${error.existingProvider} to add ${provider} to it`);
        return 3;
      } else {
        throw error;
      }
    }
    console.log(`outcome: ${outcome}`);
    console.log(`uuid: ${client.state().uuid}`);
    console.log(`email: ${client.record.get('/email')}`);
    for (const profile of client.linkedProfiles()) console.log(`linked: ${profile.provider} ${profile.identifier}`);
    await client.signOut();
    console.log('social sign-in OK');
    return 0;
  } finally {
    client.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`social sign-in failed: ${error.stack || error}`);
    process.exitCode = 1;
  },
);
