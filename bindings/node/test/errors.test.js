'use strict';
// The error classes on their own (no emulator): err.code for `switch (err.code)`, libjump's detail keys in
// camelCase with the data inside them as it came, and AbortError shaped as Node's own.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const jump = require('..');

test('err.code is the status name on every JumpError subclass, next to status and statusName', () => {
  for (const [status, name] of Object.entries(jump.STATUS_NAMES)) {
    const error = jump.errorFromDetail(Number(status), { status: Number(status), status_name: name, message: 'm' });
    assert.equal(error.code, name, `${error.name}.code`);
    assert.equal(error.statusName, name);
    assert.equal(error.status, Number(status));
  }
  // Without a detail (a status alone) the table names it.
  assert.equal(jump.errorFromDetail(-7).code, 'JUMP_E_BAD_CREDENTIALS');
  assert.equal(new jump.BadCredentialsError(-7).code, 'JUMP_E_BAD_CREDENTIALS');
});

test("the detail's own keys are camelCase; the record data, form fields and server answer in it are not touched", () => {
  const registration = jump.errorFromDetail(-9, {
    status: -9,
    status_name: 'JUMP_E_REGISTRATION_REQUIRED',
    message: 'm',
    social_registration_token: 'secret',
    provider: 'google',
    prereg_record: { givenName: 'Ada', favorite_color: 'teal', primaryAddress: { zip_code: '1' } },
    prereg_fields: { first_name: 'Ada' },
  });
  assert.deepEqual(registration.preregRecord, { givenName: 'Ada', favorite_color: 'teal', primaryAddress: { zip_code: '1' } });
  assert.deepEqual(registration.preregFields, { first_name: 'Ada' });
  assert.equal(registration.detail.statusName, 'JUMP_E_REGISTRATION_REQUIRED');
  assert.equal(registration.detail.socialRegistrationToken, 'secret');
  assert.deepEqual(registration.detail.preregRecord, registration.preregRecord);
  assert.equal(registration.detail.status_name, undefined);

  const validation = jump.errorFromDetail(-10, { invalid_fields: { email_address: ['taken'] } });
  assert.deepEqual(validation.invalidFields, { email_address: ['taken'] });
  assert.deepEqual(validation.detail.invalidFields, { email_address: ['taken'] });

  const conflict = jump.errorFromDetail(-18, {
    signed_in: true,
    conflicts: [{ path: '/profiles#1/profile', local: { pet_name: 'Rex' }, server: { pet_name: 'Max' }, base: { pet_name: null } }],
    server: { code: 330, error: 'timestamp_mismatch', error_description: 'changed', http_status: 200 },
  });
  assert.deepEqual(conflict.conflicts, [
    { path: '/profiles#1/profile', local: { pet_name: 'Rex' }, server: { pet_name: 'Max' }, base: { pet_name: null } },
  ]);
  assert.equal(conflict.detail.signedIn, true);
  // Capture's answer keeps Capture's words, as jump.h and Capture's documentation spell them.
  assert.deepEqual(conflict.server, { code: 330, error: 'timestamp_mismatch', error_description: 'changed', http_status: 200 });
});

test("AbortError is Node's: name AbortError, code ABORT_ERR, the reason as cause; not a JumpError", () => {
  const reason = new Error('gave up');
  const error = new jump.AbortError(undefined, { cause: reason });
  assert.ok(error instanceof Error);
  assert.ok(!(error instanceof jump.JumpError));
  assert.equal(error.name, 'AbortError');
  assert.equal(error.code, 'ABORT_ERR');
  assert.equal(error.cause, reason);
  assert.equal(error.message, 'The operation was aborted');
  assert.match(String(error.stack), /^AbortError: The operation was aborted/);
});
