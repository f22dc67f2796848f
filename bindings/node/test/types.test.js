'use strict';
// index.d.ts (with types/*.d.ts) is hand-written: check it names exactly what index.js exports, and every Client member it declares
// exists, so the two cannot drift apart unnoticed (typescript.test.js checks that it compiles).
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const jump = require('..');

// index.d.ts and the types/*.d.ts it re-exports (its `export *` lines), read as one text.
const types = path.join(__dirname, '..', 'types');
const dts = [path.join(__dirname, '..', 'index.d.ts'),
  ...fs.readdirSync(types).filter((f) => f.endsWith('.d.ts')).sort().map((f) => path.join(types, f))]
  .map((file) => fs.readFileSync(file, 'utf8')).join('\n');

/** include/jump.h's jump_status failures (the one list of status codes): { value: 'JUMP_E_...' }. */
function headerStatuses() {
  const header = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'include', 'jump.h'), 'utf8');
  const body = header.match(/typedef enum jump_status \{([\s\S]*?)\} jump_status;/);
  assert.ok(body, 'no jump_status enum in include/jump.h');
  return Object.fromEntries([...body[1].matchAll(/\b(JUMP_E_[A-Z_]+)\s*=\s*(-?\d+)/g)].map((m) => [m[2], m[1]]));
}

test('STATUS_NAMES is jump.h\'s list of failure statuses', () => {
  const statuses = headerStatuses();
  assert.ok(Object.keys(statuses).length >= 10);
  assert.deepEqual(Object.fromEntries(Object.entries(jump.STATUS_NAMES).map(([k, v]) => [String(k), v])), statuses);
});

test('index.d.ts declares exactly the runtime exports', () => {
  const declared = [...dts.matchAll(/^export (?:class|const|function) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(jump).sort());
});

test('every Client member in index.d.ts exists, and every error class maps its status', () => {
  const body = dts.slice(dts.indexOf('export class Client'), dts.indexOf('\n}\n', dts.indexOf('export class Client')));
  const members = [...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:]/gm)].map((m) => m[1]).filter((n) => n !== 'constructor');
  assert.ok(members.length >= 10);
  for (const name of members) assert.ok(name in jump.Client.prototype, `Client.${name} is declared but missing`);
  for (const [status, name] of Object.entries(headerStatuses())) {
    const error = jump.errorFromDetail(Number(status), { status_name: name, message: 'm' });
    assert.ok(error instanceof jump.JumpError);
    assert.notEqual(error.constructor, jump.JumpError, `status ${status} has no subclass`);
    assert.match(dts, new RegExp(`export class ${error.name} extends JumpError`));
  }
});
