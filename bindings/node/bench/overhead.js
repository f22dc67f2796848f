#!/usr/bin/env node
// Per-call overhead of the binding against a no-op N-API call (no network, no emulator):
//   node bindings/node/bench/overhead.js [iterations]
// noop: the floor N-API itself costs; isSignedIn: one jump_* call returning an int; state(): a jump_* call
// returning JSON text plus JSON.parse; a failing call: the failure path (jump_error_last, the {status, detail}
// the addon returns, the JumpError thrown from it).
'use strict';
const path = require('node:path');
const jump = require('..');
const addon = require(process.env.JUMP_NODE_ADDON || path.join(__dirname, '..', '..', '..', 'build', 'node', 'jump.node'));

const iterations = Number(process.argv[2]) || 200000;
const client = new jump.Client({ storageDirectory: ':memory:' });
const native = new addon.NativeClient(JSON.stringify({ storageDirectory: ':memory:' }));

// The median of 11 rounds, as the C# benchmark (Overhead.cs) takes: one round alone moves by tens of ns with
// a GC or another process on the shared cores.
const ROUNDS = 11;

function measure(name, fn, n = iterations) {
  for (let i = 0; i < Math.min(n, 10000); i++) fn(); // warm up (JIT)
  const samples = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / n);
  }
  samples.sort((a, b) => a - b);
  const ns = samples[ROUNDS >> 1];
  console.log(`${name.padEnd(40)} ${ns.toFixed(1).padStart(7)} ns/call`);
  return ns;
}

const floor = measure('addon.noop() (N-API floor)', () => addon.noop());
const raw = measure('NativeClient#isSignedIn (1 jump_* call)', () => native.isSignedIn());
measure('Client#isSignedIn (JS layer + call)', () => client.isSignedIn);
measure('Client#state() (JSON text + parse)', () => client.state(), iterations / 10);
measure('Client#record.get (throws NotSignedIn)', () => {
  try {
    client.record.get('/');
  } catch {
    // expected: nobody is signed in
  }
}, iterations / 10);
console.log(`binding overhead over the N-API floor for one jump_* call: ${(raw - floor).toFixed(1)} ns (median of ${ROUNDS} rounds)`);
client.close();
native.close();
