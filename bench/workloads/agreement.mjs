// Correctness beside speed: the share of the corpus probes (every URL, agents Googlebot
// and FooBot) on which an engine gives Google's verdict, and, for an engine that reports
// its matching line, the share with Google's line too; each disagreement sorted into a
// cause (../agreement-causes.mjs) with an example. A file the engine throws on gives
// "allowed" for its URLs (see matching.mjs) and is counted. Engines in their own process
// give their verdicts through their driver (peers/external.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { quickSample, SHARED } from '../corpus.mjs';
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

export default {
  id: 'agreement',
  title: "Agreement with Google's verdicts",
  kind: 'agreement',
  unit: '%',
  needsCorpus: true,
  describe: (ctx) => {
    let n = 0;
    for (const [, agents] of hostsToCheck(ctx)) for (const v of agents.values()) n += v.urls.length;
    return `${n.toLocaleString('en')} (URL, agent) probes of ${ctx.quick ? 'every 32nd host of ' : ''}the corpus against google-verdicts-seed1 (verdict; and matching line for the engines that report one); each disagreement sorted into a cause`;
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
    const percent = (100 * agree) / total;
    return {
      median: percent, min: percent, max: percent, samples: 1, agree, total,
      ...(lineTotal ? { lineAgree, lineTotal } : {}),
      ...(errors ? { checkErrors: errors } : {}),
      causes: tally.causes,
    };
  },
};
