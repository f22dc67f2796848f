'use strict';
// types/results.generated.d.ts (generated from include/jump_api.json) against what the calls really resolve to,
// against a real emulator: every key a result has is a field of its interface, spelt as camel-keys.js spells it,
// and every field not marked `?` is there. tsc checks the types compile; this checks they say what is handed over.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const jump = require('..');
const { PASSWORD, uniqueEmail, useEmulator } = require('./emulator');

const session = useEmulator();

/** { Interface: { field: required } } of the generated declarations. */
function interfaces() {
  const text = fs.readFileSync(path.join(__dirname, '..', 'types', 'results.generated.d.ts'), 'utf8');
  const found = {};
  for (const [, name, body] of text.matchAll(/^export interface (\w+) \{\n([\s\S]*?)\n\}/gm)) {
    found[name] = Object.fromEntries([...body.matchAll(/^ {2}(\w+)(\?)?: /gm)].map((m) => [m[1], !m[2]]));
  }
  return found;
}
const INTERFACES = interfaces();

/** What in value's own keys does not fit the interface's fields. */
function misfits(value, name, at = name) {
  const fields = INTERFACES[name];
  assert.ok(fields, `no interface ${name} in results.generated.d.ts`);
  return [
    ...Object.keys(value).filter((key) => !(key in fields)).map((key) => `${at}: ${key} is no field of ${name}`),
    ...Object.entries(fields).filter(([key, required]) => required && !(key in value))
      .map(([key]) => `${at}: ${name}.${key} is missing`),
  ];
}

test('misfits() reports an unknown key and a missing field', () => {
  assert.deepEqual(misfits({ changed: [], requests: 1, renamed: {} }, 'SyncResult'), []);
  assert.equal(misfits({ changed: [], renamed: {}, extra: 1 }, 'SyncResult').length, 2);
});

test('results, state, changes, events and errors have the generated interfaces\' fields', async () => {
  const client = session.track(new jump.Client(session.emu.config()));
  const events = [];
  client.on('event', (event) => events.push(event));
  const email = uniqueEmail();
  const found = misfits(await client.registerTraditional({ email, displayName: 'Ada L' }, PASSWORD), 'SignInResult');
  client.record.set('/aboutMe', 'typed');
  const changes = client.record.changes();
  found.push(...misfits(changes, 'RecordChanges'), ...changes.requests.flatMap((r) => misfits(r, 'SyncRequest')));
  await client.signOut();
  found.push(...misfits(await client.signIn(email, PASSWORD), 'SignInResult'));
  const state = client.state();
  found.push(...misfits(state, 'ClientState'), ...state.quarantine.flatMap((q) => misfits(q, 'QuarantineEntry')));
  found.push(...misfits(await client.sync(), 'SyncResult'));
  found.push(...events.flatMap((event) => misfits(event, 'Event', `event ${event.event}`)));
  await client.signOut();
  const failed = await client.signIn(email, `${PASSWORD}x`).then(() => null, (err) => err);
  assert.ok(failed instanceof jump.BadCredentialsError);
  // An error detail may carry keys of the failing function (jump.h): only the required fields are checked.
  found.push(...misfits(failed.detail, 'ErrorDetail').filter((problem) => problem.includes('is missing')));
  assert.ok(events.length >= 2);
  assert.deepEqual(found, []);
});
