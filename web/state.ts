// The page's inputs, kept in the URL fragment so a result can be shared as a
// link: JSON, deflated (CompressionStream), base64url. A fragment is never sent
// to a server, so nothing of the file or the URLs leaves the browser.
import type { Profile } from '../src/index.js';

export interface State {
  robots: string;
  urls: string;
  agent: string;
  profile: Profile;
  compare: boolean;
  robotsNext: string;
}

const PREFIX = '#s=';

export const EXAMPLE: State = {
  robots: `# An example: edit it, paste yours, or drop a file here.
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Dissalow: /tmp/
Crawl-delay: 5

User-agent: Googlebot-Image
Disallow: /

Sitemap: https://example.com/sitemap.xml
`,
  urls: `https://example.com/
https://example.com/private/accounts
https://example.com/private/press/2026.html
/docs/manual.pdf
/docs/manual.pdf?download=1
/tmp/cache
`,
  agent: 'Googlebot',
  profile: 'google',
  compare: false,
  robotsNext: '',
};

export async function encodeState(state: State): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const deflated = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
  let binary = '';
  for (let i = 0; i < deflated.length; i += 0x8000) binary += String.fromCharCode(...deflated.subarray(i, i + 0x8000));
  return PREFIX + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The state a fragment holds, or null when it holds none (or one this page cannot read). */
export async function decodeState(hash: string): Promise<State | null> {
  if (!hash.startsWith(PREFIX)) return null;
  try {
    const binary = atob(hash.slice(PREFIX.length).replace(/-/g, '+').replace(/_/g, '/'));
    const deflated = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const json = await new Response(new Blob([deflated]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
    const s = JSON.parse(json) as Partial<State>;
    return {
      robots: typeof s.robots === 'string' ? s.robots : '',
      urls: typeof s.urls === 'string' ? s.urls : '',
      agent: typeof s.agent === 'string' ? s.agent : EXAMPLE.agent,
      profile: s.profile === 'rfc' ? 'rfc' : 'google',
      compare: s.compare === true,
      robotsNext: typeof s.robotsNext === 'string' ? s.robotsNext : '',
    };
  } catch {
    return null;
  }
}
