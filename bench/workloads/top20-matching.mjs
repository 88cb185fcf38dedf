// The 20 files of the corpus with the most rules, with their probe URLs.
import { mostRules } from '../corpus.mjs';
import { hostsWorkload, measureMatching } from '../matching.mjs';

export default {
  id: 'top20',
  title: '20 files with most rules',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: true,
  describe: (ctx) => {
    const top = mostRules(ctx.corpus(), 20);
    return `the 20 corpus files with the most rules (${top[19].rules.toLocaleString('en')} to ${top[0].rules.toLocaleString('en')}), their probe URLs`;
  },
  async run(ctx, adapter) {
    return measureMatching(adapter, hostsWorkload(mostRules(ctx.corpus(), 20)), ctx.agent, ctx.budget);
  },
};
