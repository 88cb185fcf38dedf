// The built entry dist/compat.js, typed from its source (scripts/build.mjs's entries), so that a suite or bench
// module that imports the build type-checks without one (tsconfig.check.json's rootDirs: src, dist and this folder).
export * from '../../../src/compat/robots-parser.js';
export { default } from '../../../src/compat/robots-parser.js';
