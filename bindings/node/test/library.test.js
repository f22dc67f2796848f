'use strict';
// What belongs to the library rather than to a client: its versions (and the ABI the addon checks at load),
// status descriptions, and the effective settings of a config.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const jump = require('..');

const header = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'include', 'jump.h'), 'utf8');
const define = (name) => new RegExp(`^#define ${name} (.+)$`, 'm').exec(header)?.[1];

test('versions: the loaded library\'s string and number agree with jump.h, and the ABI is the addon\'s', () => {
  assert.equal(jump.version(), JSON.parse(define('JUMP_VERSION')));
  assert.equal(jump.libraryVersion, jump.version());
  const [major, minor, patch] = jump.version().split('.').map(Number);
  assert.equal(jump.versionNumber(), (major << 16) | (minor << 8) | patch);
  assert.equal(jump.versionNumber(), Number(define('JUMP_VERSION_NUMBER')));
  assert.equal(jump.abiVersion(), Number(define('JUMP_ABI_VERSION')));
  assert.equal(jump.ABI_VERSION, jump.abiVersion());
});

test('statusStr: libjump\'s descriptions, unknown codes included', () => {
  assert.equal(jump.statusStr(0).length > 0, true);
  assert.match(jump.statusStr(-7), /password/);
  assert.notEqual(jump.statusStr(-7), jump.statusStr(-3));
  assert.equal(typeof jump.statusStr(-9999), 'string');
  assert.throws(() => jump.statusStr('-7'), TypeError);
});

test('effectiveConfig: defaults filled in, keys as given; an unknown key or wrong type refused', () => {
  const settings = jump.effectiveConfig({ storageDirectory: ':memory:', requestTimeoutMs: 1234 });
  assert.equal(settings.storageDirectory, ':memory:');
  assert.equal(settings.requestTimeoutMs, 1234);
  assert.equal(settings.connectTimeoutMs, 10000);
  assert.equal(settings.captureLocale, 'en-US');
  assert.equal(settings.apiKeyHeader, 'x-jump-api-key');
  // another party's data keeps its keys (engageCustomProviders is Engage's vocabulary)
  const custom = { corp: { friendly_name: 'Corp SSO', saml_provider: 'corp-saml' } };
  assert.deepEqual(jump.effectiveConfig({ engageCustomProviders: custom }).engageCustomProviders, custom);
  assert.throws(() => jump.effectiveConfig({ noSuchKey: 1 }), jump.InvalidArgumentError);
  assert.throws(() => jump.effectiveConfig({ requestTimeoutMs: 'soon' }), jump.InvalidArgumentError);
  assert.throws(() => jump.effectiveConfig('{}'), TypeError);
});
