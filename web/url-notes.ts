// What the page can tell of a URL list besides verdicts: lines that are not
// URLs, and URLs of another site than the file's. A robots.txt speaks for one
// origin (RFC 9309 2.3: scheme, host and port); the page knows the site only
// from the list itself (the origin most of its URLs share) and from the file's
// Sitemap lines, so it warns rather than refuses: the verdict is still the one
// this file gives.

export type UrlNote = 'not-url' | 'other-site';

/** A URL's note as the worker sends it: 0 for none (NOTE_OF[code]). */
export const NOTE_OF: readonly (UrlNote | undefined)[] = [undefined, 'not-url', 'other-site'];
const CODE: Record<UrlNote, number> = { 'not-url': 1, 'other-site': 2 };

export const NOTE_LABEL: Record<UrlNote, string> = { 'not-url': 'not a URL', 'other-site': 'another site' };

/** The notes of a list (worked out in the worker: a list of 100,000 URLs would hold the page up). */
export interface ListNotes {
  /** Per URL: its note's code (NOTE_OF). */
  notes: Uint8Array;
  /** Sentences about the list as a whole. */
  summary: string[];
  /** The origin the list is taken to be of, or null (paths only). */
  site: string | null;
}

/** An http(s) URL's scheme and authority, as written ('\\' ends it too: WHATWG reads it as '/'). */
const AUTHORITY = /^https?:\/\/[^/?#\\]*/i;
/** Origins by the scheme and authority as written: 100,000 URLs of a few sites parse a few authorities, not 100,000 URLs (a parse each would hold the page up). */
const origins = new Map<string, string | null>();

/** The origin of an http(s) URL as WHATWG gives it (127.1 is 127.0.0.1), null when it is not one. */
function originOf(u: string): string | null {
  const m = AUTHORITY.exec(u);
  if (m === null) return null;
  let o = origins.get(m[0]);
  if (o === undefined) {
    try {
      o = new URL(`${m[0]}/`).origin;
    } catch {
      o = null;
    }
    if (origins.size > 10_000) origins.clear();
    origins.set(m[0], o);
  }
  return o;
}

/** Why a line is not a URL the page can place, or null when it is one (an http(s) URL, or a path from '/'). */
export function notUrl(u: string): string | null {
  if (u.startsWith('/') && !u.startsWith('//')) return null;
  if (originOf(u) !== null) return null;
  if (u.startsWith('//')) return 'starts with "//": write the scheme (https://host/…) or a path with one "/"';
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(u);
  if (scheme) {
    const s = scheme[1].toLowerCase();
    if (s !== 'http' && s !== 'https') return `a ${s}: URL, not http or https: a robots.txt is for a web site's URLs`;
    return 'not a valid URL';
  }
  if (/^[\w-]+(\.[\w-]+)+(:\d+)?([/?#]|$)/.test(u)) return `no scheme: write https://${u}, or the path alone`;
  return 'not a URL: write https://… or a path starting with "/"';
}

const hostOf = (origin: string): string => new URL(origin).hostname.replace(/^www\./, '');

/** The sentence for the explanation of a URL with a note. */
export function noteWhy(url: string, note: UrlNote, site: string | null): string {
  if (note === 'not-url') return `Not a URL the page can place (${notUrl(url) ?? 'not a URL'}). Its verdict is what the parser makes of the line as written.`;
  return `${originOf(url)} is another site than ${site} (most of the list's URLs): its own robots.txt decides its URLs. The verdict here is what this file would say if it were that site's.`;
}

/** The notes of a list of URLs, for a file with these sitemaps. */
export function listNotes(urls: string[], sitemaps: readonly string[]): ListNotes {
  const notes = new Uint8Array(urls.length);
  const siteOf: (string | null)[] = new Array(urls.length).fill(null);
  const count = new Map<string, number>();
  let notUrls = 0;
  for (let i = 0; i < urls.length; i++) {
    if (notUrl(urls[i]) !== null) {
      notes[i] = CODE['not-url'];
      notUrls++;
      continue;
    }
    if (urls[i].startsWith('/')) continue;
    const o = originOf(urls[i])!;
    siteOf[i] = o;
    count.set(o, (count.get(o) ?? 0) + 1);
  }
  // The list's site: the origin most of its URLs share (the first such on a tie).
  let site: string | null = null;
  let most = 0;
  for (const [o, n] of count) if (n > most) [site, most] = [o, n];
  const summary: string[] = [];
  let others = 0;
  const otherOrigins = new Set<string>();
  for (let i = 0; i < urls.length; i++) {
    if (siteOf[i] === null || siteOf[i] === site) continue;
    notes[i] = CODE['other-site'];
    others++;
    otherOrigins.add(siteOf[i]!);
  }
  if (others > 0) {
    summary.push(`${others.toLocaleString('en')} URL${others === 1 ? ' is' : 's are'} on another site (${[...otherOrigins].slice(0, 3).join(', ')}${otherOrigins.size > 3 ? ', …' : ''}) than the rest of the list (${site}): a robots.txt decides only its own site's URLs.`);
  }
  if (notUrls > 0) summary.push(`${notUrls.toLocaleString('en')} line${notUrls === 1 ? ' is' : 's are'} not a URL the page can place (marked "not a URL").`);
  // The file's sitemaps name its site, usually: when none is on the list's host, the file may be another site's.
  if (site !== null) {
    const hosts = new Set<string>();
    for (const s of sitemaps) {
      try {
        hosts.add(hostOf(new URL(s).origin));
      } catch {
        // A Sitemap line that is no URL says nothing of the site.
      }
    }
    if (hosts.size > 0 && !hosts.has(hostOf(site))) {
      summary.push(`The file's sitemaps are on ${[...hosts].slice(0, 3).join(', ')}, the URLs on ${new URL(site).hostname}: is this that site's robots.txt?`);
    }
  }
  return { notes, summary, site };
}
