// One generated robots.txt of 20,000 rules (a third with wildcards) and 1 million URLs.
import { largeSynthetic } from '../synthetic.mjs';
import { measureMatching, oneFileWorkload } from '../matching.mjs';

const RULES = 20_000;
const urlCount = (quick) => (quick ? 100_000 : 1_000_000);
let cached;

function workload(quick) {
  if (!cached) {
    const { file, urls } = largeSynthetic({ rules: RULES, count: urlCount(quick) });
    cached = oneFileWorkload(file, urls);
  }
  return cached;
}

export default {
  id: 'synthetic',
  title: 'Large synthetic file',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: false,
  describe: (ctx) => `one generated robots.txt of ${RULES.toLocaleString('en')} rules (a third with * or $), ${urlCount(ctx.quick).toLocaleString('en')} URLs`,
  async run(ctx, adapter) {
    return measureMatching(adapter, workload(ctx.quick), ctx.agent, ctx.budget);
  },
  /** Frees the URL list once every engine has run. */
  done() {
    cached = undefined;
  },
};
