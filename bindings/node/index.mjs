// libjump for Node.js as an ES module: `import { Client } from 'libjump'` (or `import jump from 'libjump'`).
// The same objects as the CommonJS entry (index.js), re-exported: one addon, one set of classes, so
// `instanceof` agrees between code that imports and code that requires, and one list of names (index.js's).
export * from './index.js';
export { default } from './index.js';
