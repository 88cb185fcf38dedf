// How each engine is imported and asked its first verdict in the cold-start
// workload's fresh processes: the library itself, by its package name, as its
// README shows (no adapter module between the clocks: an adapter imports its
// library through a module of ours, which adds to the library's time). CommonJS,
// so that both children (ESM and CommonJS) load it, before their first clock.
//   id: { specifier, firstVerdict(library, body, url, agent) → boolean or a promise of one,
//         noCommonJs?: why the package cannot be require()d }
// `library` is what import() or require() gave (an ES import of a CommonJS
// package: its module.exports is the default).
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { Readable } = require('node:stream');

const cjsExports = (library) => library.default ?? library;
const pathOf = (url) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const robotsWasm = (profile) => ({
  specifier: 'robots-wasm',
  firstVerdict: (library, body, url, agent) => library.parse(body, { profile }).compile(agent).isAllowed(url),
});
const GOOGLE_WASM = path.join(__dirname, '..', 'build', 'peers', 'wasm');

module.exports = {
  'wasm-google': robotsWasm('google'),
  'wasm-rfc': robotsWasm('rfc'),
  'robots-parser': {
    specifier: 'robots-parser',
    firstVerdict: (library, body, url, agent) => cjsExports(library)(new URL('/robots.txt', url).href, body).isAllowed(url, agent) !== false,
  },
  'robots-txt-guard': {
    // Its parser is a package of its own (robots-txt-parse), imported in the first verdict's time.
    specifier: 'robots-txt-guard',
    firstVerdict: async (library, body, url, agent) => {
      const parse = cjsExports(require('robots-txt-parse'));
      return cjsExports(library)(await parse(Readable.from([body]))).isAllowed(agent, pathOf(url));
    },
  },
  'robots-txt-parser': {
    specifier: 'robots-txt-parser',
    firstVerdict: (library, body, url, agent) => {
      const robots = cjsExports(library)({ userAgent: agent, allowOnNeutral: true });
      robots.parseRobots(new URL(url).origin, body);
      return robots.canCrawlSync(url);
    },
  },
  robots: {
    specifier: 'robots',
    firstVerdict: (library, body, url, agent) => {
      const parser = new (cjsExports(library).RobotsParser)(null, null);
      parser.parse(body.split(/\r\n|\r|\n/));
      return parser.canFetchSync(agent, pathOf(url));
    },
  },
  exclusion: {
    specifier: 'exclusion',
    noCommonJs: 'its CommonJS build does not load (require() throws: Cannot find module ./match.js)',
    firstVerdict: (library, body, url, agent) => new library.RobotsTxt(body).isPathAllowed(pathOf(url), agent),
  },
  'google-wasm': {
    // Google's emscripten build: its loader, then the module made from the .wasm's octets (read in the first verdict's time).
    specifier: path.join(GOOGLE_WASM, 'robots_wasm.cjs'),
    firstVerdict: async (library, body, url, agent) => {
      const google = await cjsExports(library)({ wasmBinary: readFileSync(path.join(GOOGLE_WASM, 'robots_wasm.wasm')) });
      return google.IsAllowed(agent, url, new TextEncoder().encode(body));
    },
  },
};
