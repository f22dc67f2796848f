'use strict';
// Loads the compiled addon (jump.node). It is built by `make build/node/jump.node` (a plain cc rule, no
// node-gyp) and links libjump through an rpath ($ORIGIN/../lib), so nothing else needs setting up.
// JUMP_NODE_ADDON names another build (e.g. one installed elsewhere).
const path = require('node:path');

function load() {
  const candidates = process.env.JUMP_NODE_ADDON
    ? [process.env.JUMP_NODE_ADDON]
    : [path.join(__dirname, '..', 'jump.node'), path.join(__dirname, '..', '..', '..', 'build', 'node', 'jump.node')];
  let firstError;
  for (const file of candidates) {
    try {
      return require(file);
    } catch (error) {
      if (error.code !== 'MODULE_NOT_FOUND') throw error; // found but broken: say why, do not hide it
      firstError ??= error;
    }
  }
  const tried = candidates.join(', ');
  throw new Error(`the jump addon is not built (tried ${tried}); run: make build/node/jump.node`, { cause: firstError });
}

module.exports = load();
