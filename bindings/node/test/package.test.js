'use strict';
// The npm package (scripts/build-npm.sh, what `make npm` runs), built from the library under test, installed
// with `npm install --offline` into a fresh project (a temp dir; a cache of its own, no registry) and used
// there with no LD_LIBRARY_PATH, JUMP_NODE_ADDON or NODE_PATH: examples/node/quickstart.js, once through
// require('libjump') and once as an ES module importing 'libjump', against the emulator.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFile, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Emulator, ROOT } = require('./emulator');

const VERSION = /^#define JUMP_VERSION "(.+)"$/m.exec(fs.readFileSync(path.join(ROOT, 'include', 'jump.h'), 'utf8'))[1];
const LIBRARY = process.env.JUMP_LIBRARY_PATH || path.join(ROOT, 'build', 'lib', 'libjump.so');
// The block of the example that finds the binding (installed as 'libjump', else the source tree); replaced below
// by the installed package alone, so nothing but node_modules/libjump can be used.
const FINDS_THE_BINDING = /let jump;\ntry \{\n  jump = require\('libjump'\);[^\n]*\n\} catch \{\n[^\n]*\n\}\n/;

function hasNodeGyp() {
  const npmBundled = path.join(path.dirname(fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm']).toString().trim())),
    '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  try {
    execFileSync('sh', ['-c', 'command -v node-gyp'], { stdio: 'ignore' });
    return true;
  } catch {
    return fs.existsSync(npmBundled);
  }
}

function run(file, args, options) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 120000, maxBuffer: 1 << 24, ...options }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
  });
}

// The environment of the project's programs: nothing that could point at the source tree's builds.
function cleanEnv(extra) {
  const env = { ...process.env, ...extra };
  for (const name of ['LD_LIBRARY_PATH', 'JUMP_NODE_ADDON', 'NODE_PATH', 'JUMP_LIBRARY_PATH', 'NODE_OPTIONS']) delete env[name];
  return env;
}

let emu;
let work;
let tarball;
let project;
const skip = !hasNodeGyp() ? 'node-gyp is missing (scripts/ensure-deps.sh --package npm)' :
  !fs.existsSync(LIBRARY) ? `no library at ${LIBRARY} (make lib)` : false;

before(async () => {
  if (skip) return;
  emu = await Emulator.start();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'jump-npm-'));
  const built = await run('bash', [path.join(ROOT, 'scripts', 'build-npm.sh'), LIBRARY, path.join(work, 'dist')], { timeout: 300000 });
  assert.equal(built.code, 0, `build-npm.sh failed:\n${built.stdout}${built.stderr}`);
  tarball = built.stdout.trim().split('\n').at(-1);
  project = path.join(work, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
  const installed = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', path.join(work, 'npm-cache'), tarball],
    { cwd: project, env: cleanEnv({ npm_config_registry: 'http://127.0.0.1:9/' }) });
  assert.equal(installed.code, 0, `npm install --offline failed:\n${installed.stdout}${installed.stderr}`);
});
after(async () => {
  await emu?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('make npm: libjump-<version>.tgz holds the JavaScript, the addon, libjump.so.1 and its libraries, no dependencies', { skip }, () => {
  assert.equal(path.basename(tarball), `libjump-${VERSION}.tgz`);
  const all = execFileSync('tar', ['-tzf', tarball]).toString().trim().split('\n').sort();
  // The libraries libjump.so.1 needs beyond the C library's own, bundled under hashed names (libcurl-1a2b3c4d.so.4);
  // Tests/install checks that the package needs nothing else.
  const BUNDLED = /^package\/lib[A-Za-z0-9_.+-]*-[0-9a-f]{8}\.so(\.[0-9]+)*$/;
  const files = all.filter((f) => !BUNDLED.test(f));
  const bundled = all.filter((f) => BUNDLED.test(f)).map((f) => f.replace(/^package\/(lib[A-Za-z0-9_.+]*?)-[0-9a-f]{8}\..*/, '$1'));
  for (const name of ['libcurl', 'libjansson']) assert.ok(bundled.includes(name), `${name} is not bundled: ${bundled}`);
  const lib = fs.readdirSync(path.join(ROOT, 'bindings', 'node', 'lib')).filter((f) => f.endsWith('.js')).map((f) => `package/lib/${f}`);
  const types = fs.readdirSync(path.join(ROOT, 'bindings', 'node', 'types')).filter((f) => f.endsWith('.d.ts')).map((f) => `package/types/${f}`);
  assert.deepEqual(files, [...lib, ...types, ...['LICENSE', 'NOTICE', 'README.md', 'index.d.ts', 'index.js', 'index.mjs', 'jump.node',
    'libjump.so.1', 'package.json'].map((f) => `package/${f}`)].sort());
  const pkg = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'libjump', 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'libjump');
  assert.equal(pkg.version, VERSION);
  assert.equal(pkg.license, 'Apache-2.0');
  assert.equal(pkg.dependencies, undefined);
  assert.deepEqual(pkg.exports['.'], { types: './index.d.ts', import: './index.mjs', require: './index.js' });
  // The addon needs libjump.so.1 and finds it next to itself.
  const dynamic = execFileSync('readelf', ['-d', path.join(project, 'node_modules', 'libjump', 'jump.node')]).toString();
  assert.match(dynamic, /NEEDED.*\[libjump\.so\.1\]/);
  assert.match(dynamic, /R(UN)?PATH.*\[\$ORIGIN\]/);
});

test("require('libjump') loads the package's own addon, libjump.so.1, libcurl and jansson", { skip }, async () => {
  const done = await run(process.execPath, ['-e', `
    const jump = require('libjump');
    const maps = require('node:fs').readFileSync('/proc/self/maps', 'utf8').split('\\n').map((l) => l.split(/\\s+/).at(-1));
    console.log(JSON.stringify({ version: jump.libraryVersion, loaded: [...new Set(maps.filter((m) => /\\/(jump\\.node|libjump\\.so[.0-9]*|libcurl[^/]*|libjansson[^/]*)$/.test(m)))] }));
  `], { cwd: project, env: cleanEnv() });
  assert.equal(done.code, 0, done.stderr);
  const { version, loaded } = JSON.parse(done.stdout);
  assert.equal(version, VERSION);
  const own = path.join(fs.realpathSync(project), 'node_modules', 'libjump');
  // libcurl and jansson too: the ones bundled beside libjump.so.1, not the system's
  const bundled = (name) => fs.readdirSync(own).find((f) => f.startsWith(`${name}-`) && f.includes('.so'));
  assert.deepEqual(loaded.sort(), [path.join(own, 'jump.node'), path.join(own, bundled('libcurl')),
    path.join(own, bundled('libjansson')), path.join(own, 'libjump.so.1')].sort());
});

test('the quickstart runs with require(\'libjump\') (CommonJS)', { skip }, async () => {
  const example = fs.readFileSync(path.join(ROOT, 'examples', 'node', 'quickstart.js'), 'utf8');
  assert.match(example, FINDS_THE_BINDING, 'examples/node/quickstart.js no longer finds the binding as this test expects');
  fs.writeFileSync(path.join(project, 'quickstart.cjs'), example.replace(FINDS_THE_BINDING, "const jump = require('libjump');\n"));
  const done = await run(process.execPath, ['quickstart.cjs'], { cwd: project, env: cleanEnv({ JUMP_EMULATOR_URL: emu.url }) });
  assert.equal(done.code, 0, `quickstart failed:\n${done.stdout}\n${done.stderr}`);
  assert.match(done.stdout, new RegExp(`^libjump ${VERSION.replace(/\./g, '\\.')};`, 'm'));
  assert.equal(done.stdout.trimEnd().split('\n').at(-1), 'quickstart OK');
});

test("the quickstart runs as an ES module importing 'libjump'; its exports are the CommonJS ones", { skip }, async () => {
  const example = fs.readFileSync(path.join(ROOT, 'examples', 'node', 'quickstart.js'), 'utf8');
  const esm = "import * as jump from 'libjump';\nimport { createRequire } from 'node:module';\n" +
    'const require = createRequire(import.meta.url);\n' + example.replace(/^#!.*\n/, '').replace(FINDS_THE_BINDING, '');
  fs.writeFileSync(path.join(project, 'quickstart.mjs'), esm);
  const done = await run(process.execPath, ['quickstart.mjs'], { cwd: project, env: cleanEnv({ JUMP_EMULATOR_URL: emu.url }) });
  assert.equal(done.code, 0, `quickstart failed:\n${done.stdout}\n${done.stderr}`);
  assert.equal(done.stdout.trimEnd().split('\n').at(-1), 'quickstart OK');

  fs.writeFileSync(path.join(project, 'exports.mjs'), `
    import * as esm from 'libjump';
    import { createRequire } from 'node:module';
    const cjs = createRequire(import.meta.url)('libjump');
    const named = Object.keys(esm).filter((k) => k !== 'default');
    console.log(JSON.stringify({ named: named.sort(), cjs: Object.keys(cjs).sort(),
      same: named.every((k) => esm[k] === cjs[k]), default: esm.default === cjs }));
  `);
  const exported = await run(process.execPath, ['exports.mjs'], { cwd: project, env: cleanEnv() });
  assert.equal(exported.code, 0, exported.stderr);
  const result = JSON.parse(exported.stdout);
  assert.deepEqual(result.named, result.cjs); // index.mjs names every export of index.js
  assert.ok(result.same && result.default);
});
