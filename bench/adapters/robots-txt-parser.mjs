// robots-txt-parser: one instance per file, its user agent set at creation, the body
// given with parseRobots (no fetch), URLs checked with canCrawlSync as documented.
import { packageVersion } from './package-version.mjs';

export async function load() {
  const { default: robotsTxtParser } = await import('robots-txt-parser');
  return [{
    id: 'robots-txt-parser',
    label: 'robots-txt-parser',
    library: 'robots-txt-parser',
    version: packageVersion('robots-txt-parser'),
    api: 'isAllowed',
    parse: (file, agent) => {
      const robots = robotsTxtParser({ userAgent: agent, allowOnNeutral: true });
      robots.parseRobots(file.origin, file.text);
      return robots;
    },
    isAllowed: (robots, url) => robots.canCrawlSync(url),
  }];
}
