// robots-txt-guard, configured from robots-txt-parse (its companion parser, which
// reads a stream and resolves a promise): the pairing its README documents.
import { Readable } from 'node:stream';
import { pathOf } from './url-path.mjs';
import { packageVersion } from './package-version.mjs';

export async function load() {
  const { default: guard } = await import('robots-txt-guard');
  const { default: parseRobots } = await import('robots-txt-parse');
  return [{
    id: 'robots-txt-guard',
    label: 'robots-txt-guard',
    library: 'robots-txt-guard + robots-txt-parse',
    version: `${packageVersion('robots-txt-guard')} + ${packageVersion('robots-txt-parse')}`,
    api: 'isAllowed',
    async: true,
    parse: async (file, agent) => ({ guard: guard(await parseRobots(Readable.from([file.text]))), agent }),
    isAllowed: (h, url) => h.guard.isAllowed(h.agent, pathOf(url)),
  }];
}
