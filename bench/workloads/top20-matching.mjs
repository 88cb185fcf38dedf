// The 20 files of the corpus with the most rules, with their probe URLs
// (every other one of them for --quick). This engine runs them twice: compiled
// hot (the automaton, as every matching workload), then as cold matchers
// (coldOctets: Infinity: the rule list walked, indexed once its reviews say so),
// the walk a matcher keeps when the automaton would not pay back (issue 28's goal:
// at least 1M URLs/s). The first row is the headline's.
import { mostRules, quickSample } from '../corpus.mjs';
import { hostsWorkload, measureMatching } from '../matching.mjs';

/** The cold walk's goal, URLs/s (issue 28). */
const COLD_GOAL = 1e6;

/** Where the cold matchers ended: a matcher that left the cold walk would not be measuring it. */
function coldModes(adapter) {
  return (handles) => {
    const modes = new Map();
    for (const h of handles) {
      const mode = adapter.modeOf(h);
      modes.set(mode, (modes.get(mode) ?? 0) + 1);
    }
    const stayed = modes.get('cold') ?? 0;
    const left = [...modes].filter(([m]) => m !== 'cold').map(([m, n]) => `${n} ${m}`);
    return { note: `${stayed} of ${handles.length} matchers stayed cold${left.length ? ` (${left.join(', ')})` : ''}; goal at least ${COLD_GOAL / 1e6}M URLs/s` };
  };
}

export default {
  id: 'top20',
  title: '20 files with most rules',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: true,
  describe: (ctx) => {
    const top = mostRules(ctx.corpus(), 20);
    return `${ctx.quick ? 'every other one of ' : ''}the 20 corpus files with the most rules (${top[19].rules.toLocaleString('en')} to ${top[0].rules.toLocaleString('en')}), their probe URLs; this engine compiled hot, and then its cold matchers (coldOctets: Infinity), against robots-parser's one way`;
  },
  async run(ctx, adapter) {
    const workload = hostsWorkload(quickSample(mostRules(ctx.corpus(), 20), ctx.quick, 2));
    const hot = await measureMatching(adapter, workload, ctx.agent, ctx.budget);
    if (!adapter.modeOf || 'error' in hot) return hot;
    const cold = await measureMatching(adapter, workload, ctx.agent, ctx.budget, { coldOctets: Infinity }, coldModes(adapter));
    const variants = [{ ...hot, label: 'compiled hot' }, { ...cold, label: 'cold matcher' }];
    return { ...hot, variants };
  },
};
