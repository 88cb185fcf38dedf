// Engines measured in a process of their own (Google's native C++ driver, the Python
// parsers' drivers): each driver loads the corpus files and probes first, then times in
// process (no I/O), and prints its figures; the harness turns them into rows of the same
// tables, marked "own process". The protocol (google-check's, which the Python drivers
// follow):
//   DRIVER --bench CORPUS_DIR PROBES_TSV AGENT REPS   → one JSON line on stdout; per
//       repetition on stderr: "rep N: parse Xs first Ys urls Zs[ mix Ws match Vs]"
//       (parse alone, parse + first verdict, and every probe; mix: parse once + a host's
//       probes, match: the probes against files parsed before; an engine with no
//       parse-once, Google's, gives urls for both)
//   DRIVER --verdicts CORPUS_DIR PROBES_TSV AGENT     → "agent\thost\turl\tallowed|disallowed\tline"
//       per probe (line "-" where the engine has none)
// PROBES_TSV is "host\turl" lines grouped by host; CORPUS_DIR holds a file per host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SHARED, mostRules, quickSample } from '../corpus.mjs';
import { firstWalked } from '../workloads/parse-compile.mjs';
import { run } from '../spawner.mjs';

// Run by the spawner: a fork here would slow this process's next passes (../spawner.mjs).
const exec = run;
const CORPUS_DIR = path.join(SHARED, 'corpus', 'robots');
const MAX_BUFFER = 1 << 30;

/** The workloads an own-process engine has figures for (user: `robots bench FILE URLS`'s). */
export const EXTERNAL_WORKLOADS = ['parse', 'first-verdict', 'crawler-mix', 'corpus', 'top20', 'agreement', 'user'];

/**
 * Bodies and probes of files that are not in the corpus folder (a user's robots.txt, the
 * conformance vectors): written to a temp folder as files named f0, f1, …; fn gets the folder
 * and the hosts ({ host, urls }) and its result is returned once the folder is removed.
 */
export async function withFiles(files, fn) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-peer-files-'));
  try {
    const hosts = files.map((f, i) => {
      writeFileSync(path.join(dir, `f${i}`), f.bytes);
      return { host: `f${i}`, urls: f.urls };
    });
    return await fn(dir, hosts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function probesFile(dir, name, rows) {
  const file = path.join(dir, `${name}.tsv`);
  writeFileSync(file, rows.map(([host, url]) => `${host}\t${url}`).join('\n') + '\n');
  return file;
}

/** Median, slowest and fastest of per-repetition seconds, as rates of `units`. */
function rates(seconds, units) {
  const s = [...seconds].sort((a, b) => a - b);
  return { median: units / s[Math.floor(s.length / 2)], min: units / s[s.length - 1], max: units / s[0], samples: s.length, units };
}

/** Runs a driver's --bench over hosts (files of corpusDir); returns per-repetition seconds of each phase and the sizes. */
async function benchRun(command, hosts, agent, reps, dir, corpusDir = CORPUS_DIR) {
  const tsv = probesFile(dir, `bench-${hosts.length}`, hosts.flatMap((h) => h.urls.map((u) => [h.host, u])));
  const { stdout, stderr } = await exec(command[0], [...command.slice(1), '--bench', corpusDir, tsv, agent, String(reps)], { maxBuffer: MAX_BUFFER });
  const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  /** @type {Record<string, number[]>} */
  const phases = { parse: [], first: [], urls: [], mix: [], match: [] };
  for (const line of stderr.split('\n')) {
    if (!/^rep \d+:/.test(line)) continue;
    for (const [, name, s] of line.matchAll(/(\w+) ([\d.]+)s/g)) phases[name]?.push(Number(s));
  }
  if (phases.mix.length === 0) phases.mix = phases.urls;
  if (phases.match.length === 0) phases.match = phases.urls;
  return { summary, phases, files: summary.files, urls: summary.urls, bytes: summary.bytes };
}

/**
 * Each probe's verdict (and line, or undefined; threw: the engine threw) from a driver's
 * --verdicts, for one agent, in the order of `rows` ([host, url], hosts' files in corpusDir).
 */
export async function driverVerdicts(command, rows, agent, corpusDir = CORPUS_DIR) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-peer-'));
  try {
    const tsv = probesFile(dir, 'verdicts', rows);
    const { stdout } = await exec(command[0], [...command.slice(1), '--verdicts', corpusDir, tsv, agent], { maxBuffer: MAX_BUFFER });
    const out = stdout.split('\n').filter(Boolean).map((l) => {
      const f = l.split('\t');
      return { allowed: f[3] === 'allowed', line: f[4] === '-' ? undefined : Number(f[4]), threw: f[5] === 'threw' };
    });
    if (out.length !== rows.length) throw new Error(`${path.basename(command.at(-1))} --verdicts gave ${out.length} verdicts for ${rows.length} probes`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An adapter for an own-process engine: `command` is the driver's argv prefix. Its
 * runWorkload(workload, ctx) returns the workload's figures (the agreement is computed by
 * the agreement workload from verdicts()); runRound(workload, ctx) one round's, for a
 * workload timed in rounds with this process's engines (../rounds.mjs).
 */
export function externalAdapter({ id, label, library, version, command, cpuCommand = /** @type {string[] | undefined} */ (undefined), note, reps: fullReps = 5, roundReps = 4 }) {
  const runs = new Map();
  const reps = (ctx) => (ctx.quick ? 1 : fullReps);
  /** One --bench run per host list and run: crawler-mix and corpus share the corpus's (parse and first-verdict are timed in rounds: runRound). */
  const benchOf = (ctx, key, hosts) => {
    if (!runs.has(key)) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-peer-'));
      runs.set(key, benchRun(command, hosts, ctx.agent, reps(ctx), dir).finally(() => rmSync(dir, { recursive: true, force: true })));
    }
    return runs.get(key);
  };
  const mark = (r, extra = {}) => ({ ...r, ...extra, note: [note, extra.note].filter(Boolean).join('; ') });
  return {
    id,
    label,
    library,
    version,
    api: 'own process',
    ownProcess: true,
    measures: EXTERNAL_WORKLOADS,
    command,
    /** Whether the driver can time in its thread's CPU time (cpuCommand: the driver so built, or so set). */
    cpuClock: Boolean(cpuCommand),
    async runWorkload(workload, ctx) {
      // --quick: every 8th host, as the quick in-process workloads sample.
      const corpus = workload.needsCorpus ? quickSample(ctx.corpus(), ctx.quick) : [];
      const coverage = workload.needsCorpus ? corpus.length / ctx.corpus().length : 1;
      const share = coverage < 1 ? { coverage } : {};
      switch (workload.id) {
        case 'crawler-mix': {
          const b = await benchOf(ctx, 'corpus', corpus);
          const r = { label: 'host after host', ...rates(b.phases.mix, b.urls), ...share };
          return mark({ ...r, variants: [r] });
        }
        case 'corpus': {
          const b = await benchOf(ctx, 'corpus', corpus);
          return mark({ ...rates(b.phases.match, b.urls), ...share });
        }
        case 'top20': {
          const top = quickSample(mostRules(ctx.corpus(), 20), ctx.quick, 2);
          const b = await benchOf(ctx, 'top20', top);
          return mark(rates(b.phases.match, b.urls));
        }
        case 'user': {
          // `robots bench FILE URLS`: the user's one file, timed by the driver as the corpus is;
          // the URL list repeated until a pass takes long enough to time (google-check prints ms).
          const once = (copies, n) => withFiles([{ bytes: workload.file.bytes, urls: Array.from({ length: copies }, () => workload.urls).flat() }], (corpusDir, hosts) => {
            const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-peer-'));
            return benchRun(command, hosts, ctx.agent, n, dir, corpusDir).finally(() => rmSync(dir, { recursive: true, force: true }));
          });
          let copies = 1;
          for (let tries = 0; tries < 6; tries++) {
            const t = Math.max(...(await once(copies, 1)).phases.match);
            if (t >= 0.2) break;
            copies = Math.ceil(copies * (t > 0.01 ? 0.3 / t : 100));
          }
          const b = await once(copies, reps(ctx));
          return mark(rates(b.phases.match, b.urls), copies > 1 ? { note: `the URL list ${copies.toLocaleString('en')} times over` } : {});
        }
        default:
          return undefined;
      }
    },
    /**
     * One round of a workload timed in rounds (../rounds.mjs), parse or first-verdict: a driver run of
     * roundReps repetitions on the corpus with each host's first walked probe alone (the URL
     * this process's engines check), so that its first phase and its mix phase (Google's urls:
     * every probe of a host, here the one) are both the first verdict: two passes a repetition.
     * The first repetition is the warm-up, not counted, as an in-process engine's are: a fresh
     * process's first is slower (the native driver's too).
     * ctx.roundClock 'cpu': the driver that times in thread CPU (cpuCommand).
     */
    async runRound(workload, ctx) {
      if (workload.id !== 'first-verdict' && workload.id !== 'parse') return undefined;
      const all = ctx.corpus();
      const corpus = quickSample(all, ctx.quick);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-peer-'));
      try {
        const hosts = corpus.map((f) => ({ host: f.host, urls: [firstWalked(f)] }));
        const driver = ctx.roundClock === 'cpu' && cpuCommand ? cpuCommand : command;
        const b = await benchRun(driver, hosts, ctx.agent, ctx.quick ? 2 : roundReps, dir);
        // parse: the parse phase (one pass a repetition).
        const seconds = workload.id === 'parse' ? b.phases.parse.slice(1) : [...b.phases.first.slice(1), ...b.phases.mix.slice(1)];
        const r = rates(seconds, b.bytes);
        const mb = (x) => x / 1e6;
        return mark({
          ...r, median: mb(r.median), min: mb(r.min), max: mb(r.max),
          passes: seconds.map((s) => mb(b.bytes / s)),
          filesPerSecond: rates(seconds, b.files),
          ...(corpus.length < all.length ? { coverage: corpus.length / all.length } : {}),
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    verdicts: (rows, agent, corpusDir) => driverVerdicts(command, rows, agent, corpusDir),
  };
}
