'use strict';
// types/config.d.ts's Config interface is written by hand, for its doc comments: it must name every config key
// include/jump_api.json lists (and no other), so that TypeScript users can set each one.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

test('the Config interface names every config key of jump_api.json', () => {
  const root = path.join(__dirname, '..', '..', '..');
  const api = JSON.parse(fs.readFileSync(path.join(root, 'include', 'jump_api.json'), 'utf8'));
  const text = fs.readFileSync(path.join(__dirname, '..', 'types', 'config.d.ts'), 'utf8');
  const [, body] = text.match(/^export interface Config \{\n([\s\S]*?)\n\}/m);
  const declared = [...body.matchAll(/^ {2}(\w+)\?: /gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, api.config_keys.map((key) => key.name).sort());
});
