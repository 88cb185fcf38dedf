// The real corpus: every robots.txt of ../shared/corpus/robots with its probe URLs.
import { hostsWorkload, measureMatching } from '../matching.mjs';
import { quickSample } from '../corpus.mjs';

export default {
  id: 'corpus',
  title: 'Real corpus',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: true,
  describe: (ctx) => `${quickSample(ctx.corpus(), ctx.quick, 16).length.toLocaleString('en')} robots.txt files, their probe URLs (full URL strings), agent ${ctx.agent}`,
  async run(ctx, adapter) {
    return measureMatching(adapter, hostsWorkload(quickSample(ctx.corpus(), ctx.quick, 16)), ctx.agent, ctx.budget);
  },
};
