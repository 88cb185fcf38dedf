// exclusion: new RobotsTxt(text), then isPathAllowed(path, agent).
import { packageVersion } from './package-version.mjs';
import { pathOf } from './url-path.mjs';

export async function load() {
  const { RobotsTxt } = await import('exclusion');
  return [{
    id: 'exclusion',
    label: 'exclusion',
    library: 'exclusion',
    version: packageVersion('exclusion'),
    api: 'isAllowed',
    parse: (file, agent) => ({ robots: new RobotsTxt(file.text), agent }),
    isAllowed: (h, url) => h.robots.isPathAllowed(pathOf(url), h.agent),
  }];
}
