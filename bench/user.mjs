// Every engine on a user's own robots.txt and URL list (one URL per line): the
// module behind `robots bench FILE URLS` (the CLI calls it). Engines whose
// library is not installed are skipped with a note, so it also works where the
// devDependencies are absent.
import { readFileSync } from 'node:fs';
import { loadAdapters } from './adapters/index.mjs';
import { timingBudget } from './measure.mjs';
import { measureMatching, oneFileWorkload } from './matching.mjs';
import { runWorkloads } from './harness.mjs';
import { renderResultsText } from './tables.mjs';

/** The user's file and URLs as a throughput workload. */
function userWorkload(robotsPath, urls) {
  const bytes = readFileSync(robotsPath);
  const origin = (urls.find((u) => /^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(u)) ?? 'https://example.com/').match(/^[^:]+:\/\/[^/?#]+/)[0];
  const work = oneFileWorkload({ text: bytes.toString('utf8'), bytes: new Uint8Array(bytes), origin }, urls);
  return {
    id: 'user',
    title: 'Your robots.txt',
    kind: 'throughput',
    unit: 'URLs/s',
    needsCorpus: false,
    describe: () => `${robotsPath} (${bytes.length.toLocaleString('en')} octets), ${urls.length.toLocaleString('en')} URLs`,
    run: (ctx, adapter) => measureMatching(adapter, work, ctx.agent, ctx.budget),
  };
}

/**
 * Runs every installed engine on robotsPath and the URLs of urlsPath, writes the
 * tables to `out` and returns the results object (the shape of bench/results/*.json).
 * `profile` keeps only this engine's adapters of that profile (peers always run).
 */
export async function benchUserFiles({ robotsPath, urlsPath, agent = 'Googlebot', profile, quick = false, out = process.stdout }) {
  const urls = readFileSync(urlsPath, 'utf8').split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  if (urls.length === 0) throw new Error(`${urlsPath}: no URLs (one per line)`);
  const { adapters: all, skipped } = await loadAdapters();
  const adapters = profile ? all.filter((a) => !a.profile || a.profile === profile) : all;
  for (const s of skipped) out.write(`note: ${s.module} skipped (${s.reason})\n`);
  const ctx = { agent, quick, budget: timingBudget(quick) };
  const results = await runWorkloads({ adapters, skipped, workloads: [userWorkload(robotsPath, urls)], ctx });
  out.write(renderResultsText(results) + '\n');
  return results;
}
