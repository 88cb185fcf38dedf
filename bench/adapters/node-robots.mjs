// robots (node-robots, "robots.js"): RobotsParser.parse over the file's lines, then
// canFetchSync(agent, path). Constructed without a URL so that it fetches nothing.
import { packageVersion } from './package-version.mjs';
import { pathOf } from './url-path.mjs';

export async function load() {
  const { default: robots } = await import('robots');
  return [{
    id: 'robots',
    label: 'robots (node-robots)',
    library: 'robots',
    version: packageVersion('robots'),
    api: 'isAllowed',
    parse: (file, agent) => {
      const parser = new robots.RobotsParser(null, null);
      parser.parse(file.text.split(/\r\n|\r|\n/));
      return { parser, agent };
    },
    isAllowed: (h, url) => h.parser.canFetchSync(h.agent, pathOf(url)),
  }];
}
