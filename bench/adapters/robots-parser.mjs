// robots-parser: the most used npm robots.txt library; the reference the ratios are against.
import { packageVersion } from './package-version.mjs';

export async function load() {
  // Its types declare an ES default export; the package is CommonJS, whose module.exports (the function) is the default.
  const { default: robotsParser } = /** @type {{ default: typeof import('robots-parser').default }} */ (/** @type {unknown} */ (await import('robots-parser')));
  return [{
    id: 'robots-parser',
    label: 'robots-parser',
    library: 'robots-parser',
    version: packageVersion('robots-parser'),
    api: 'isAllowed',
    parse: (file, agent) => ({ robots: robotsParser(`${file.origin}/robots.txt`, file.text), agent }),
    // undefined (a URL of another origin) never happens here: every URL is on the file's origin.
    isAllowed: (h, url) => h.robots.isAllowed(url, h.agent) !== false,
  }];
}
