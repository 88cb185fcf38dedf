// Correctness beside speed: the share of the corpus probes (every URL, agents
// Googlebot and FooBot) on which an engine gives Google's verdict. A file the
// engine throws on gives "allowed" for its URLs (see matching.mjs) and is counted.
import { prepareHandles, releaseHandles, verdictsOf } from '../matching.mjs';
import { quickSample } from '../corpus.mjs';

/** The (host, agents) entries of Google's verdicts to check: every 32nd host for --quick. */
function hostsToCheck(ctx) {
  return quickSample([...ctx.verdicts()], ctx.quick, 32);
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
    return `${n.toLocaleString('en')} (URL, agent) probes of ${ctx.quick ? 'every 32nd host of ' : ''}the corpus against google-verdicts-seed1`;
  },
  async run(ctx, adapter) {
    const byHost = new Map(ctx.corpus().map((h) => [h.host, h]));
    let agree = 0;
    let total = 0;
    let parseErrors = 0;
    let checkErrors = 0;
    for (const [host, agents] of hostsToCheck(ctx)) {
      const file = byHost.get(host);
      for (const [agent, expected] of agents) {
        const prepared = await prepareHandles(adapter, [file], agent);
        parseErrors += prepared.parseErrors;
        const { verdicts: got, checkErrors: threw } = verdictsOf(adapter, prepared.handles[0], expected.urls);
        checkErrors += threw;
        for (let i = 0; i < got.length; i++) if (got[i] === expected.allowed[i]) agree++;
        total += got.length;
        releaseHandles(adapter, prepared.handles);
      }
    }
    const percent = (100 * agree) / total;
    return { median: percent, min: percent, max: percent, samples: 1, agree, total, ...(parseErrors ? { parseErrors } : {}), ...(checkErrors ? { checkErrors } : {}) };
  },
};
