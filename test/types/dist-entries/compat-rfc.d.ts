// The built entry dist/compat-rfc.js, typed from its source (see compat.d.ts).
export * from '../../../src/compat/rfc.js';
export { default } from '../../../src/compat/rfc.js';
