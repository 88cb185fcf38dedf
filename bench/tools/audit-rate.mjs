// robots audit's rate from an index, per CPU second (user + system: steadier
// than wall time on a shared machine): the corpus's robots.txt files captured in
// a WARC (warcio), indexed by `robots index` (the built command), then audited
// in this process (bulk/audit bundled here by esbuild from src/) for the
// crawlers given, over rounds; the median rate, and where the time goes
// (reading the index, each site's record, and within it the category walks).
//
// With --against DIR (another checkout, e.g. main's), that checkout's src/ is
// bundled as well and the two audited in turn, round by round, in this one
// process (A B, then B A, round by round: on a shared machine, separate runs
// differ by more than the change measured, and within a round the second run
// may find the first's heap and caches), each one's median and the median of
// the rounds' ratios.
//
//   node bench/tools/audit-rate.mjs [--crawlers GPTBot,CCBot,...] [--rounds 5] [--corpus DIR] [--against DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { auditBundle } from './audit-bundle.mjs';
import { against, arg, AUDIT_CRAWLERS, corpus, root } from './audit-tool-options.mjs';
import { corpusIndex } from './corpus-index.mjs';

const crawlers = arg('--crawlers', AUDIT_CRAWLERS.join(',')).split(',');
const rounds = Number(arg('--rounds', '5'));

const dir = mkdtempSync(path.join(tmpdir(), 'audit-rate-'));
try {
  // The corpus as Common Crawl publishes it: a WARC of robots.txt captures, gzipped per record.
  const { index, hosts } = await corpusIndex(corpus, dir, root, 'inherit');

  // The audit's modules, bundled from src/ for this process.
  const bundled = async (from, name) => import(pathToFileURL(await auditBundle(from, dir, name, root)).href);
  /** @type {{ name: string, m: any, rates: number[], readShare: number }[]} */
  const runs = [{ name: 'this checkout', m: await bundled(root, 'audit'), rates: [], readShare: 0 }];
  if (against !== undefined) runs.unshift({ name: path.resolve(against), m: await bundled(path.resolve(against), 'against'), rates: [], readShare: 0 });

  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  for (let r = 0; r <= rounds; r++) {
    // (Odd rounds the other order: neither checkout always goes first.)
    for (const run of r % 2 === 0 ? runs : [...runs].reverse()) {
      const { m } = run;
      const t0 = cpu();
      const read = m.readRobotsIndexes([index], { maxOctets: 512_000 });
      const sites = m.captureSites(read.data);
      const t1 = cpu();
      const auditor = new m.SiteAuditor({ crawlers, profile: 'rfc', maxOctets: 512_000, convention: 'rfc' });
      let n = 0;
      for (const s of sites) n += auditor.audit(s.site, s.url, s.robots()).crawlers.length;
      const t2 = cpu();
      read.dispose();
      if (n !== sites.length * crawlers.length) throw new Error('a site lost its crawlers');
      if (r === 0) continue; // (an untimed round: the JIT warms up)
      run.rates.push(sites.length / (t2 - t0));
      run.readShare += (t1 - t0) / (t2 - t0) / rounds;
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const n = (x) => Math.round(x).toLocaleString('en');
  for (const run of runs) {
    const sorted = [...run.rates].sort((a, b) => a - b);
    console.log(`robots audit from an index${runs.length > 1 ? ` (${run.name})` : ''}: ${hosts.length} sites, ${crawlers.length} crawlers (${crawlers.join(', ')}), rfc profile: ` +
      `${n(median(sorted))} sites per CPU second (median of ${rounds} rounds; min ${n(sorted[0])}, ` +
      `max ${n(sorted[sorted.length - 1])}); reading the index ${(run.readShare * 100).toFixed(0)}% of it`);
  }
  if (runs.length > 1) {
    const ratios = runs[1].rates.map((b, i) => b / runs[0].rates[i]);
    console.log(`this checkout / ${runs[0].name}: ${median(ratios).toFixed(2)} (the median of the rounds' ratios; ${ratios.filter((x) => x > 1).length} of ${rounds} rounds faster)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
