// How to read the headline, for a reader new to it: which of its columns make every
// engine do the same work (like for like), which compare APIs (an engine that parses
// once and checks many URLs against ones that parse the whole file again on every
// check), and which rows were timed in a process of their own. Only the columns and
// engines of the run are named.

/** Columns where every engine does the same work, with what that work is. */
const LIKE_FOR_LIKE = {
  parse: 'each file parsed, and by this engine compiled for the crawler; an engine without a parse of its own has no figure',
  'first-verdict': "each file parsed, compiled and asked one URL: a crawler's first question to a host",
  memory: 'every host compiled at once, in a fresh process',
  'cold-start': "a fresh process: the package imported as its users import it, a small file parsed, one verdict; the ESM row, the CommonJS one in the workload's table",
  agreement: "the same probes, each verdict against Google's",
};

/** Columns that compare APIs: what a parse-once engine pays per URL against engines that parse again per call. */
const API_COMPARISONS = ['crawler-mix', 'corpus', 'top20', 'synthetic', 'pathological'];

/** The Markdown paragraph printed under the headline table. */
export function headlineGuide(results) {
  const ids = new Set(results.workloads.map((w) => w.id));
  const code = (id) => `\`${id}\``;
  // A run before the cold start imported each package itself (its results have no ESM and
  // CommonJS rows) imported the engines through the bench's adapters: not like for like.
  const coldStart = results.workloads.find((w) => w.id === 'cold-start');
  const adapted = coldStart && !Object.values(coldStart.results).some((r) => r.variants);
  const same = Object.entries(LIKE_FOR_LIKE).filter(([id]) => ids.has(id) && !(id === 'cold-start' && adapted));
  const apis = API_COMPARISONS.filter((id) => ids.has(id));
  const own = results.engines.filter((e) => e.api === 'own process').map((e) => e.label);
  const parts = ['How to read it:'];
  if (same.length) parts.push(`like for like (every engine does the same work): ${same.map(([id, what]) => `${code(id)} (${what})`).join('; ')}.`);
  if (apis.length) {
    parts.push(`${apis.map(code).join(', ')} compare APIs: this engine and the npm engines parse once, check many URLs against what they built; Google's builds (and nzrsky's fork) have no parse once, check many: every check parses the whole file again, so their rows there measure that API, not how fast they match a URL.`);
  }
  if (adapted) parts.push("`cold-start` in this run imported each engine through the bench's adapter module, which adds a module of the bench's to an npm engine's time and not to this engine's: this engine's ratios there read lower than like for like would.");
  if (results.engines.some((e) => e.api === 'checkMany')) parts.push('A `checkMany` row is the same matcher as the row above it, asked a batch of URLs in one call.');
  parts.push(`Rows run in this process unless marked: ${own.length ? `${own.join(', ')} ran in their own process, timing themselves on the same files and probes (in \`parse\` and \`first-verdict\` every engine, in this process or not, is timed in rounds in its thread's CPU time)` : 'every engine of this run ran in this process'}.`);
  const ownWasm = results.engines.find((e) => e.id === 'wasm-google-own');
  if (ownWasm) parts.push(`${ownWasm.label} is this engine run as the native parsers are, alone in a process of its own: the row to read against them in \`parse\` and \`first-verdict\` (this engine's other rows share this process with the JavaScript engines, their code and garbage).`);
  return parts.join(' ');
}
