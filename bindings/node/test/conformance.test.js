'use strict';
// The conformance suite (Tests/conformance): every scenario of scenarios.json played by this binding's runner
// (conformance_runner.js) through Tests/conformance/run.py, one test per scenario. run.py starts its own
// emulator and compares each outcome with the scenario's "expect"; its output is saved in
// build/conformance/node.jsonl for Tests/conformance/check.py.
const { test, before } = require('node:test');
const assert = require('node:assert/strict');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CONFORMANCE = path.join(ROOT, 'Tests', 'conformance');
const NAMES = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'scenarios.json'), 'utf8')).scenarios.map((s) => s.name);

let run = null; // {verdicts: {name: line}, stderr}

before(async () => {
  run = await new Promise((resolve) => {
    execFile('python3', [path.join(CONFORMANCE, 'run.py'), 'node', '--out', path.join(ROOT, 'build', 'conformance', 'node.jsonl'),
      '--', process.execPath, path.join(__dirname, 'conformance_runner.js')],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 900000 }, (error, stdout, stderr) => {
      const verdicts = {};
      for (const line of stdout.split('\n')) {
        const match = /^(PASS|FAIL) (\S+)/.exec(line);
        if (match) verdicts[match[2]] = line;
      }
      resolve({ verdicts, stderr: `${stderr}${error && !Object.keys(verdicts).length ? `\n${error.message}\n${stdout}` : ''}` });
    });
  });
}, { timeout: 900000 });

for (const name of NAMES) {
  test(`conformance: ${name}`, () => {
    const line = run.verdicts[name] || `FAIL ${name}: no verdict from run.py`;
    assert.ok(line.startsWith('PASS '), `${line}\nrunner stderr:\n${run.stderr.slice(-4000)}`);
  });
}
