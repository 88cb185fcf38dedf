// The built entry dist/compat-google.js, typed from its source (see compat.d.ts).
export * from '../../../src/compat/google.js';
export { default } from '../../../src/compat/google.js';
