'use strict';
// index.d.ts through the TypeScript compiler: test/types/example.ts (CommonJS) and example.mts (ES module)
// use the public API as an app would, and `tsc --noEmit --strict` must report nothing. The examples resolve
// 'libjump' through package.json "exports" (its "types" condition), as an app's would.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFile, execFileSync } = require('node:child_process');
const path = require('node:path');

const TYPES = path.join(__dirname, 'types');

function findTsc() {
  const tsc = process.env.TSC || 'tsc';
  try {
    execFileSync(tsc, ['--version'], { stdio: 'ignore' });
    return tsc;
  } catch {
    return null;
  }
}
const tsc = findTsc();
// A named, counted skip (scripts/run-tests.sh lists the reason); scripts/ensure-deps.sh --test node installs it.
const skip = tsc ? false : "TypeScript's tsc is not installed (apt-get install node-typescript, or scripts/ensure-deps.sh --test node)";

test('index.d.ts compiles under tsc --noEmit --strict with the typed examples', { skip }, async () => {
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(tsc, ['--noEmit', '--strict', '--pretty', 'false', '-p', path.join(TYPES, 'tsconfig.json')],
      { cwd: TYPES, timeout: 120000 },
      (error, out, err) => resolve({ code: error ? (error.code ?? 1) : 0, stdout: out, stderr: err }));
  });
  assert.equal(`${stdout}${stderr}`.trim(), '', 'tsc reported diagnostics');
  assert.equal(code, 0);
});
