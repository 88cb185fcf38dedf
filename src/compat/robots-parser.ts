// robots-wasm/compat: robots-parser's API on this engine (factory.ts), Google's
// profile by default.
import { factoryFor } from './factory.js';

export type { CompatOptions, Robot } from './factory.js';

/**
 * robots-parser's factory: `robotsParser(robotsTxtUrl, contents)`. The third
 * argument is this entry's own: the profile (Google's by default;
 * robots-wasm/compat/rfc is this factory with rfc's, for code that calls
 * robots-parser with two arguments).
 */
const robotsParser = factoryFor('google');
export default robotsParser;
export { robotsParser };
