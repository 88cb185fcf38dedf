// The 20 files of the corpus with the most rules, with their probe URLs
// (every other one of them for --quick).
import { mostRules, quickSample } from '../corpus.mjs';
import { hostsWorkload, measureMatching } from '../matching.mjs';

export default {
  id: 'top20',
  title: '20 files with most rules',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: true,
  describe: (ctx) => {
    const top = mostRules(ctx.corpus(), 20);
    return `${ctx.quick ? 'every other one of ' : ''}the 20 corpus files with the most rules (${top[19].rules.toLocaleString('en')} to ${top[0].rules.toLocaleString('en')}), their probe URLs`;
  },
  async run(ctx, adapter) {
    const files = quickSample(mostRules(ctx.corpus(), 20), ctx.quick, 2);
    return measureMatching(adapter, hostsWorkload(files), ctx.agent, ctx.budget);
  },
};
