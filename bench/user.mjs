// Every engine on a user's own robots.txt and URL list: the module behind
// `robots bench FILE URLS` (the command reads and checks the files, then calls
// benchUserFiles). Engines whose library is not installed are skipped with a
// note, so it also works where the devDependencies are absent.
import { loadAdapters } from './adapters/index.mjs';
import { timingBudget } from './measure.mjs';
import { measureMatching, oneFileWorkload } from './matching.mjs';
import { runWorkloads } from './harness.mjs';
import { renderResultsText } from './tables.mjs';
import { originOf } from './adapters/url-path.mjs';


/** The user's file and URLs as a throughput workload. */
function userWorkload(name, bytes, urls) {
  const file = { text: Buffer.from(bytes).toString('utf8'), bytes, origin: originOf(urls) };
  const work = oneFileWorkload(file, urls);
  return {
    // For the engines measured in their own process (peers/external.mjs): what to hand their driver.
    file,
    urls,
    id: 'user',
    title: 'Your robots.txt',
    kind: 'throughput',
    unit: 'URLs/s',
    needsCorpus: false,
    describe: () => `${name} (${bytes.length.toLocaleString('en')} octets), ${urls.length.toLocaleString('en')} URLs`,
    run: (ctx, adapter) => measureMatching(adapter, work, ctx.agent, ctx.budget),
  };
}

/**
 * Runs every installed engine on one robots.txt (`bytes`, shown as `name`) and
 * `urls`, writes the tables to `out`, progress lines to `log`, and returns the
 * results object (the shape of bench/results/*.json). `profile` keeps only this
 * engine's adapters of that profile (peers always run).
 */
export async function benchUserFiles({ name, bytes, urls, agent = 'Googlebot', profile, quick = false, out = process.stdout, log = (/** @type {string} */ _line) => {} }) {
  if (urls.length === 0) throw new RangeError('no URLs to measure');
  const { adapters: all, skipped } = await loadAdapters();
  const adapters = profile ? all.filter((a) => !a.profile || a.profile === profile) : all;
  for (const s of skipped) log(`note: ${s.module} skipped (${s.reason})`);
  const ctx = { agent, quick, budget: timingBudget(quick) };
  const results = await runWorkloads({ adapters, skipped, workloads: [userWorkload(name, bytes, urls)], ctx, log });
  out.write(renderResultsText(results) + '\n');
  return results;
}
