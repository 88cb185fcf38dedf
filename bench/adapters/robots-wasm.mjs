// This engine (dist/index.js), four ways: profiles google and rfc, each checked one
// URL at a time (Matcher.isAllowed) and in batches (Matcher.checkMany). Parsing
// is the package's compile(body, agent): the file's rules for the agent compiled,
// the work a crawler does once per host, and all it keeps (RobotsCache's path).
import { readFileSync } from 'node:fs';

export async function load() {
  const { compile } = await import('../../dist/index.js');
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const adapters = [];
  for (const profile of /** @type {const} */ (['google', 'rfc'])) {
    const base = {
      library: 'robots-wasm',
      version,
      profile,
      // A warm loop compiles hot (coldOctets 0: the automaton from the first URL); the
      // crawler's workloads (first-verdict, crawler-mix, memory) take the default, cold first;
      // the envelope gives its own coldOctets.
      parse: (file, agent, how) => compile(file.bytes, agent, { profile, maxOctets: Infinity, coldOctets: how?.warm ? 0 : how?.coldOctets }),
      isAllowed: (matcher, url) => matcher.isAllowed(url),
      explain: (matcher, url) => matcher.explain(url),
      release: (matcher) => matcher.dispose(),
      // How a matcher walks now ('cold', 'hot', 'rules'): the top20 workload's cold row says where its matchers ended.
      modeOf: (matcher) => matcher.stats.mode,
      // What compile() leaves to the first check (the parse workload measures it too).
      lazy: 'the cold walk of its rule list',
    };
    adapters.push({ ...base, id: `wasm-${profile}`, label: `robots-wasm ${profile}`, api: 'isAllowed' });
    adapters.push({
      ...base,
      id: `wasm-${profile}-batch`,
      label: `robots-wasm ${profile} checkMany`,
      api: 'checkMany',
      // Same parser and memory as the single-URL variant: measured once, under it.
      sameParseAs: `wasm-${profile}`,
      checkMany: (matcher, urls) => matcher.checkMany(urls),
    });
  }
  return adapters;
}
