// This engine against itself: what parse + compile + N checks cost with the
// default options (the mode policy: cold first, then the automaton) against
// always-cold (coldOctets: Infinity) and always-hot (coldOctets: 0), for
// N = 1 … 10,000, summed over the 6 corpus files with the most rules, the 8
// median ones (by rules) and the bench's generated 20,000-rule file. The figure
// at each N is default / min(cold, hot): the policy's cost over the better of
// the two it chooses between (the goal: at most 1.25× everywhere).
//
// The three options are timed in one process, round by round, the order of the
// options turning each round (noise on a shared machine falls on all three);
// each cost is the median of its rounds. A file's URLs are its probes, then
// the probes again with a distinct suffix on their path (`-1a`), so that every
// one of N URLs is new to the automaton, as a big site's URLs are.
import { largeSynthetic } from '../synthetic.mjs';
import { mostRules } from '../corpus.mjs';

export const COUNTS = [1, 10, 100, 1000, 10_000];
export const OPTIONS = /** @type {const} */ (['default', 'cold', 'hot']);
const HOW = { default: undefined, cold: { coldOctets: Infinity }, hot: { coldOctets: 0 } };

/** The 6 files with the most rules, the 8 median ones, and the generated file. */
export function envelopeFiles(hosts) {
  const byRules = [...hosts].sort((a, b) => a.rules - b.rules);
  const mid = byRules.length >> 1;
  const generated = largeSynthetic({ rules: 20_000, count: COUNTS[COUNTS.length - 1] });
  return [
    ...mostRules(hosts, 6),
    ...byRules.slice(mid - 4, mid + 4),
    { host: 'generated (20,000 rules)', ...generated.file, urls: generated.urls },
  ];
}

/** n URLs of a file: its own, then variants with `-<k in base 36>` at the end of the path. */
export function urlsOf(file, n) {
  const own = file.urls;
  return Array.from({ length: n }, (_, k) => {
    const u = own[k % own.length];
    if (k < own.length) return u;
    const cut = u.search(/[?#]/);
    const at = cut < 0 ? u.length : cut;
    return `${u.slice(0, at)}-${k.toString(36)}${u.slice(at)}`;
  });
}

/** Milliseconds of one pass: parse + compile + the URLs' checks + release, per file. */
function pass(adapter, files, lists, agent, how, perFile, clock) {
  let allowed = 0;
  for (let i = 0; i < files.length; i++) {
    const t0 = clock();
    const h = adapter.parse(files[i], agent, how);
    const urls = lists[i];
    for (let k = 0; k < urls.length; k++) if (adapter.isAllowed(h, urls[k])) allowed++;
    adapter.release(h);
    perFile[i] += clock() - t0;
  }
  return allowed;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * Costs (ms, summed over the files, median of the rounds) of each option at each
 * N, and per file. A round repeats the pass until it took minMs, so that small N
 * are not timed at the clock's grain. clock() is in ms: wall time by default
 * (the bench's), CPU time for the A/B tool (less noisy on a shared machine).
 */
export function measureEnvelope(adapter, files, agent, { rounds, minMs, counts = COUNTS, clock = () => performance.now() }) {
  /** @type {{ n: number, default: number, cold: number, hot: number, ratio: number, files: { host: string, default: number, cold: number, hot: number, ratio: number }[] }[]} */
  const rows = [];
  let sink = 0;
  for (const n of counts) {
    const lists = files.map((f) => urlsOf(f, n));
    /** @type {Record<string, number[]>} */
    const total = { default: [], cold: [], hot: [] };
    /** @type {Record<string, number[][]>} */
    const byFile = { default: [], cold: [], hot: [] };
    for (let r = 0; r < rounds + 1; r++) {
      const order = OPTIONS.map((_, i) => OPTIONS[(i + r) % OPTIONS.length]);
      for (const option of order) {
        const perFile = new Array(files.length).fill(0);
        let reps = 0;
        const t0 = performance.now();
        do {
          sink += pass(adapter, files, lists, agent, HOW[option], perFile, clock);
          reps++;
        } while (performance.now() - t0 < minMs);
        if (r === 0) continue; // (the first round warms the JIT up)
        total[option].push(perFile.reduce((a, b) => a + b, 0) / reps);
        byFile[option].push(perFile.map((ms) => ms / reps));
      }
    }
    const cost = { default: median(total.default), cold: median(total.cold), hot: median(total.hot) };
    const fileCost = (o, i) => median(byFile[o].map((round) => round[i]));
    const files_ = files.map((f, i) => {
      const c = { default: fileCost('default', i), cold: fileCost('cold', i), hot: fileCost('hot', i) };
      return { host: f.host, ...c, ratio: c.default / Math.min(c.cold, c.hot) };
    });
    rows.push({ n, default: cost.default, cold: cost.cold, hot: cost.hot, ratio: cost.default / Math.min(cost.cold, cost.hot), files: files_ });
  }
  if (sink < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
  return rows;
}

export default {
  id: 'envelope',
  title: 'Envelope: default options against always-cold and always-hot',
  kind: 'envelope',
  unit: '×',
  needsCorpus: true,
  // This engine alone, one URL at a time (the options are its own).
  appliesTo: (adapter) => adapter.library === 'robots-wasm' && !adapter.sameParseAs,
  describe: (ctx) => `parse + compile + N checks (N = ${COUNTS.map((n) => n.toLocaleString('en')).join(', ')}) summed over the 6 corpus files with the most rules, the 8 median ones and a generated 20,000-rule file, with the default options, always cold (coldOctets: Infinity) and always hot (coldOctets: 0); the figure is default / min(cold, hot) at each N (worst N as the median; goal at most 1.25×), options timed in turn in one process, order turning each round, median of ${ctx.quick ? 2 : 5} rounds`,
  async run(ctx, adapter) {
    const files = envelopeFiles(ctx.corpus());
    const rows = measureEnvelope(adapter, files, ctx.agent, ctx.quick ? { rounds: 2, minMs: 20 } : { rounds: 5, minMs: 100 });
    const worst = rows.reduce((w, r) => (r.ratio > w.ratio ? r : w));
    const variants = rows.map((r) => {
      const file = r.files.reduce((w, f) => (f.ratio > w.ratio ? f : w));
      return {
        label: `N = ${r.n.toLocaleString('en')}`,
        median: r.ratio, min: r.ratio, max: r.ratio,
        note: `default ${r.default.toFixed(2)} ms, cold ${r.cold.toFixed(2)} ms, hot ${r.hot.toFixed(2)} ms; worst file ${file.host} ${file.ratio.toFixed(2)}×`,
      };
    });
    return { median: worst.ratio, min: Math.min(...rows.map((r) => r.ratio)), max: worst.ratio, curve: rows, variants };
  },
};
