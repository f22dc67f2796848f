'use strict';
// index.d.ts is hand-written (no TypeScript compiler here): check it names exactly what index.js exports, and
// every Client member it declares exists, so the two cannot drift apart unnoticed.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const jump = require('..');

const dts = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8');

test('index.d.ts declares exactly the runtime exports', () => {
  const declared = [...dts.matchAll(/^export (?:class|const|function) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(jump).sort());
});

test('every Client member in index.d.ts exists, and every error class maps its status', () => {
  const body = dts.slice(dts.indexOf('export class Client'), dts.indexOf('\n}\n', dts.indexOf('export class Client')));
  const members = [...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:]/gm)].map((m) => m[1]).filter((n) => n !== 'constructor');
  assert.ok(members.length >= 10);
  for (const name of members) assert.ok(name in jump.Client.prototype, `Client.${name} is declared but missing`);
  for (const [status, name] of Object.entries(jump.STATUS_NAMES)) {
    const error = jump.errorFromDetail(Number(status), { status_name: name, message: 'm' });
    assert.ok(error instanceof jump.JumpError);
    assert.notEqual(error.constructor, jump.JumpError, `status ${status} has no subclass`);
    assert.match(dts, new RegExp(`export class ${error.name} extends JumpError`));
  }
});
