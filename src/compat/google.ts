// robots-wasm/compat/google: robots-parser's API with Google's profile, named
// (robots-wasm/compat's default too), beside robots-wasm/compat/rfc.
import { factoryFor } from './factory.js';

export type { CompatOptions, Robot } from './factory.js';

/** robots-parser's factory; the third argument may still name a profile. */
const robotsParser = factoryFor('google');
export default robotsParser;
export { robotsParser };
