// robots-wasm/compat/rfc: robots-parser's API with the rfc profile (RFC 9309,
// RFC 3986 normalisation) by default, for code that calls robotsParser(url,
// contents) with two arguments (Crawlee, or any library that depends on
// robots-parser: README, "Replacing robots-parser in a library you depend on").
import { factoryFor } from './factory.js';

export type { CompatOptions, Robot } from './factory.js';

/** robots-parser's factory; the third argument may still name a profile. */
const robotsParser = factoryFor('rfc');
export default robotsParser;
export { robotsParser };
