// Correctness beside speed: the share of the corpus probes (every URL, agents Googlebot
// and FooBot) on which an engine gives Google's verdict, and, for an engine that reports
// its matching line, the share with Google's line too; each disagreement sorted into a
// cause (../agreement-causes.mjs) with an example. A file the engine throws on gives
// "allowed" for its URLs (see matching.mjs) and is counted. Engines in their own process
// give their verdicts through their driver (peers/external.mjs).
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { loadConformance, quickSample, SHARED } from '../corpus.mjs';
import { withFiles } from '../peers/external.mjs';
import { causeOf, causeTally, fileFacts } from '../agreement-causes.mjs';

/** The (host, agents) entries of Google's verdicts to check: every 32nd host for --quick. */
function hostsToCheck(ctx) {
  return quickSample([...ctx.verdicts()], ctx.quick, 32);
}

/** An in-process engine's verdicts (and lines, when it has explain()) on one file's URLs. */
async function inProcess(adapter, file, agent, urls) {
  let handle;
  try {
    handle = await adapter.parse(file, agent);
  } catch {
    return urls.map(() => ({ allowed: true, threw: true }));
  }
  const out = urls.map((u) => {
    try {
      const allowed = adapter.checkMany ? Boolean(adapter.checkMany(handle, [u])[0]) : adapter.isAllowed(handle, u);
      return { allowed, line: adapter.explain ? adapter.explain(handle, u).line : undefined, threw: false };
    } catch {
      return { allowed: true, threw: true };
    }
  });
  adapter.release?.(handle);
  return out;
}

/** A vector an in-process engine has not answered within this long is given up (robots-txt-parser backtracks for minutes on texting's crazy_long_regex). */
const VECTOR_DEADLINE_MS = 2_000;

/** An in-process engine's verdicts on the vectors, in a worker restarted after each vector it hangs on. */
function workerVerdicts(adapter, count) {
  const out = new Array(count);
  return new Promise((resolve) => {
    const startAt = (start) => {
      if (start >= count) return resolve(out);
      const worker = new Worker(new URL('../conformance-worker.mjs', import.meta.url), { workerData: { module: adapter.module, id: adapter.id, start } });
      let next = start;
      let timer;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          worker.terminate();
          out[next] = { allowed: true, threw: true, timeout: true };
          startAt(next + 1);
        }, VECTOR_DEADLINE_MS);
      };
      arm();
      worker.on('message', (m) => {
        if (m.done) { clearTimeout(timer); worker.terminate(); resolve(out); return; }
        out[m.i] = { allowed: m.allowed, threw: m.threw };
        next = m.i + 1;
        arm();
      });
      worker.once('error', () => { clearTimeout(timer); out[next] = { allowed: true, threw: true }; startAt(next + 1); });
    };
    startAt(0);
  });
}

/** Each conformance vector's verdict by an engine: { allowed, threw, timeout? }. */
async function conformanceVerdicts(adapter, vectors) {
  if (!adapter.ownProcess) return workerVerdicts(adapter, vectors.length);
  const out = new Array(vectors.length);
  for (const agent of new Set(vectors.map((v) => v.agent))) {
    const mine = vectors.map((v, i) => ({ v, i })).filter((x) => x.v.agent === agent);
    const got = await withFiles(mine.map((x) => ({ bytes: x.v.bytes, urls: [x.v.url] })), (dir, hosts) => adapter.verdicts(hosts.map((h) => [h.host, h.urls[0]]), agent, dir));
    mine.forEach((x, k) => { out[x.i] = got[k]; });
  }
  return out;
}

let vectorsCache;

export default {
  id: 'agreement',
  title: "Agreement with Google's verdicts",
  kind: 'agreement',
  unit: '%',
  needsCorpus: true,
  describe: (ctx) => {
    let n = 0;
    for (const [, agents] of hostsToCheck(ctx)) for (const v of agents.values()) n += v.urls.length;
    vectorsCache ??= loadConformance();
    return `${n.toLocaleString('en')} (URL, agent) probes of ${ctx.quick ? 'every 32nd host of ' : ''}the corpus against google-verdicts-seed1 (verdict; and matching line for the engines that report one), and the ${vectorsCache.length.toLocaleString('en')} single-agent conformance vectors against Google's verdict; each disagreement sorted into a cause`;
  },
  async run(ctx, adapter) {
    const byHost = new Map(ctx.corpus().map((h) => [h.host, h]));
    const hosts = hostsToCheck(ctx);
    /** @type {Map<string, { allowed: boolean, line?: number, threw?: boolean }[]>} host\0agent → verdicts */
    const got = new Map();
    if (adapter.ownProcess) {
      for (const agent of new Set(hosts.flatMap(([, agents]) => [...agents.keys()]))) {
        const rows = hosts.flatMap(([host, agents]) => (agents.get(agent)?.urls ?? []).map((u) => [host, u]));
        const all = await adapter.verdicts(rows, agent);
        let i = 0;
        for (const [host, agents] of hosts) {
          const n = agents.get(agent)?.urls.length ?? 0;
          got.set(`${host}\0${agent}`, all.slice(i, i + n));
          i += n;
        }
      }
    } else {
      for (const [host, agents] of hosts) {
        for (const [agent, expected] of agents) got.set(`${host}\0${agent}`, await inProcess(adapter, byHost.get(host), agent, expected.urls));
      }
    }
    let agree = 0, total = 0, lineAgree = 0, lineTotal = 0, errors = 0;
    const tally = causeTally();
    for (const [host, agents] of hosts) {
      let facts;
      for (const [agent, expected] of agents) {
        const mine = got.get(`${host}\0${agent}`) ?? [];
        for (let i = 0; i < expected.urls.length; i++) {
          const g = mine[i];
          if (g.threw) errors++;
          const sameVerdict = g.allowed === expected.allowed[i];
          if (sameVerdict) agree++;
          total++;
          const hasLine = g.line !== undefined;
          if (hasLine) { lineTotal++; if (sameVerdict && g.line === expected.lines[i]) lineAgree++; }
          if (!sameVerdict || (hasLine && g.line !== expected.lines[i])) {
            facts ??= fileFacts(readFileSync(path.join(SHARED, 'corpus', 'robots', host)));
            const cause = causeOf({ facts, agent, url: expected.urls[i], googleLine: expected.lines[i], threw: g.threw });
            const rule = expected.lines[i] > 0 ? `line ${expected.lines[i]} \`${facts.lines[expected.lines[i] - 1].trim().slice(0, 80)}\`` : 'no rule';
            tally.add(cause, `${host}, ${agent}, ${expected.urls[i].slice(0, 100)}: Google ${expected.allowed[i] ? 'allowed' : 'disallowed'} (${rule}), this engine ${g.allowed ? 'allowed' : 'disallowed'}${hasLine ? ` (line ${g.line})` : ''}${sameVerdict ? ' (the line differs)' : ''}`, sameVerdict);
          }
        }
      }
    }
    // The conformance vectors: Google's verdict (no line), causes tallied with the corpus's.
    const vectors = (vectorsCache ??= loadConformance());
    const vectorVerdicts = await conformanceVerdicts(adapter, vectors);
    let vectorAgree = 0;
    vectors.forEach((v, i) => {
      const g = vectorVerdicts[i];
      if (g.allowed === v.google) { vectorAgree++; return; }
      const cause = causeOf({ facts: fileFacts(v.bytes), agent: v.agent, url: v.url, googleLine: 0, threw: g.threw });
      tally.add(cause, `conformance vector ${v.id} (${v.agent}, ${JSON.stringify(v.url.slice(0, 80))}): Google ${v.google ? 'allowed' : 'disallowed'}, this engine ${g.timeout ? `gave no verdict within ${VECTOR_DEADLINE_MS / 1000} s` : g.allowed ? 'allowed' : 'disallowed'}`);
    });
    const percent = (100 * agree) / total;
    return {
      median: percent, min: percent, max: percent, samples: 1, agree, total,
      ...(lineTotal ? { lineAgree, lineTotal } : {}),
      conformance: { agree: vectorAgree, total: vectors.length },
      ...(errors ? { checkErrors: errors } : {}),
      causes: tally.causes,
    };
  },
};
