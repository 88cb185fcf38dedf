// The crawler's shape of work: a host's robots.txt parsed and compiled, a few
// dozen of its URLs checked, then the next host; nothing warm to lean on.
//
// first-verdict: parse + compile + one check per corpus file (MB/s, files/s).
// crawler-mix: parse + compile + all of the host's probes (URLs/s), in two
// orders, so that no engine is favoured by the harness: host after host (each
// host's URLs in a run, as a crawler meets them), and interleaved (every host
// of the pass parsed, then one URL of each host in turn, as the corpus workload
// times its passes: robots-parser is much slower that way).
// Each file's handle is released (this engine's dispose()) when its host is done.
import { measureWork } from '../measure.mjs';
import { measureParse, parseLoop, firstWalked, spreadShares } from './parse-compile.mjs';

export const firstVerdict = {
  id: 'first-verdict',
  title: 'Parse + compile + first verdict',
  kind: 'throughput',
  unit: 'MB/s',
  needsCorpus: true,
  // Timed in rounds with the own-process engines (Google's native driver): ../rounds.mjs.
  inRounds: true,
  appliesTo: (adapter) => !adapter.sameParseAs,
  describe: (ctx) => `every corpus file parsed for ${ctx.agent} (this engine: and compiled) and its first probe URL checked (not /robots.txt), then released; ${ctx.corpus().length.toLocaleString('en')} files; also files/s`,
  async run(ctx, adapter) {
    const files = ctx.corpus();
    const failed = new Set();
    const async = Boolean(adapter.async);
    // Each file's probe found before the timing, as Google's native driver has its
    // URLs in memory before it times: finding it in the loop (a find() over the
    // host's URLs, warm) would be timed with the engine, where a Map is a small part
    // of this engine's pass. (Google's driver checks each host's first probe,
    // /robots.txt: its time is the same as with this one's, within noise.)
    const probe = new Map(files.map((f) => [f, firstWalked(f)]));
    const withCheck = { ...adapter, parse: async ? async (f, a) => { const h = await adapter.parse(f, a); adapter.isAllowed(h, probe.get(f)); return h; } : (f, a) => { const h = adapter.parse(f, a); adapter.isAllowed(h, probe.get(f)); return h; } };
    const r = await measureParse(parseLoop(withCheck, ctx.agent, failed), files, ctx.budget, async);
    const perFile = Math.round(r.coverage * files.length) / r.units;
    const mb = (rate) => rate / 1e6;
    return {
      ...r,
      median: mb(r.median), min: mb(r.min), max: mb(r.max),
      ...(r.passes ? { passes: r.passes.map(mb) } : {}),
      filesPerSecond: { median: r.median * perFile, min: r.min * perFile, max: r.max * perFile },
      ...(failed.size ? { parseErrors: failed.size } : {}),
    };
  },
};

/** One verdict, 1 allowed: a check that throws counts as allowed (a crawler that catches it and fetches), and is counted. */
function verdict(adapter, h, url, errors) {
  try {
    return adapter.isAllowed(h, url) ? 1 : 0;
  } catch {
    errors.checks++;
    return 1;
  }
}

/** One pass of crawler-mix over a list of files, host after host; returns the verdicts' count (kept from the optimiser). */
function hostAfterHost(adapter, agent, errors) {
  const release = adapter.release ?? (() => {});
  const many = adapter.checkMany;
  return async (list) => {
    let allowed = 0;
    for (const f of list) {
      let h;
      try { h = adapter.async ? await adapter.parse(f, agent) : adapter.parse(f, agent); } catch { errors.parse.add(f); allowed += f.urls.length; continue; }
      if (many) {
        const v = many(h, f.urls);
        for (let i = 0; i < v.length; i++) allowed += v[i];
      } else {
        for (const u of f.urls) allowed += verdict(adapter, h, u, errors);
      }
      release(h);
    }
    return allowed;
  };
}

/** The same, interleaved: the pass's hosts parsed, then URL i of every host, for i = 0, 1, … */
function interleaved(adapter, agent, errors) {
  const release = adapter.release ?? (() => {});
  return async (list) => {
    let allowed = 0;
    const handles = [];
    for (const f of list) {
      try { handles.push(adapter.async ? await adapter.parse(f, agent) : adapter.parse(f, agent)); } catch { errors.parse.add(f); handles.push(undefined); allowed += f.urls.length; }
    }
    const longest = list.reduce((n, f) => Math.max(n, f.urls.length), 0);
    for (let i = 0; i < longest; i++) {
      for (let k = 0; k < list.length; k++) {
        const h = handles[k];
        const u = list[k].urls[i];
        if (h !== undefined && u !== undefined) allowed += verdict(adapter, h, u, errors);
      }
    }
    for (const h of handles) if (h !== undefined) release(h);
    return allowed;
  };
}

export const crawlerMix = {
  id: 'crawler-mix',
  title: 'Crawler mix: parse + compile + a host\'s probes',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: true,
  describe: (ctx) => {
    const files = ctx.corpus();
    const urls = files.reduce((n, f) => n + f.urls.length, 0);
    return `every corpus file parsed for ${ctx.agent} (this engine: and compiled), all its probe URLs checked, then released: ${files.length.toLocaleString('en')} hosts, ${urls.toLocaleString('en')} URLs (~${Math.round(urls / files.length)} a host); host after host, and interleaved (a pass's hosts parsed, then one URL of each in turn)`;
  },
  async run(ctx, adapter) {
    const files = ctx.corpus();
    const share = spreadShares(files);
    const urlsOf = (n) => share(n).list.reduce((sum, f) => sum + f.urls.length, 0);
    const totalUrls = urlsOf(files.length);
    const measure = async (loop, label) => {
      const errors = { parse: new Set(), checks: 0 };
      const run = loop(adapter, ctx.agent, errors);
      const r = await measureWork({ total: files.length, view: (n) => share(n).list, run, unitsOf: urlsOf, coverageOf: (list) => list.reduce((s, f) => s + f.urls.length, 0) / totalUrls, budget: ctx.budget, async: true });
      return { label, ...r, ...(errors.parse.size ? { parseErrors: errors.parse.size } : {}), ...(errors.checks ? { checkErrors: errors.checks } : {}) };
    };
    const variants = [await measure(hostAfterHost, 'host after host')];
    // checkMany takes a host's URLs at once: only host after host applies.
    if (!adapter.checkMany) variants.push(await measure(interleaved, 'interleaved'));
    return { ...variants[0], variants };
  },
};
