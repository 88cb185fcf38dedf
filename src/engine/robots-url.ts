// Where a page's robots.txt lives: the page's origin (scheme, host, port) with
// the path /robots.txt (RFC 9309 2.3). That robots.txt speaks for that origin
// only: another subdomain, scheme or port has its own.
//
// urlOrigin() is the one way this package names an origin: robotsUrl(), the
// RobotsCache's keys, and `robots classify` (--robots-dir, --robots-warc,
// --shard: src/bulk/classify/origin-runs.ts) all take a host as WHATWG URL's host
// parser gives it, so every spelling of a host finds the same robots.txt.

/** An origin as urlOrigin() names it. */
export interface UrlOrigin {
  /** Lower-case, without ':'. */
  scheme: string;
  /** As WHATWG URL writes it (lower-case, IDN as punycode, IPv4 dotted, IPv6 compressed in brackets), without a trailing dot. */
  host: string;
  /** '' for none or the scheme's default. */
  port: string;
}

/**
 * The origin of an absolute URL, or why it has none: the host as WHATWG URL's
 * host parser gives it (percent-escapes decoded, IDN to punycode, lower case;
 * IPv4 numbers in any base or short form as a dotted quad; IPv6 compressed;
 * `\` read as `/` in http(s), ws(s) and ftp URLs; the default port dropped),
 * and a trailing dot dropped: "example.com." is the DNS name "example.com",
 * so it gets that name's robots.txt (rather than none at all).
 */
export function urlOrigin(url: string): UrlOrigin | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not an absolute URL: ${JSON.stringify(url.slice(0, 200))}`;
  }
  // WHATWG URL already does IDN, case and default ports for http, https, ftp, ws, wss.
  let host = parsed.hostname;
  if (!SPECIAL_SCHEMES.has(parsed.protocol) && host !== '') {
    // Other schemes keep an opaque (percent-encoded, case-kept) host: apply the same rules.
    let name: string;
    try {
      name = decodeURIComponent(host);
    } catch {
      name = '';
    }
    host = name.startsWith('[') ? name.toLowerCase() : domainToASCII(name);
    if (host === '') return `not a valid host in URL: ${JSON.stringify(url.slice(0, 200))}`;
  }
  if (host === '') return `URL has no host, so no robots.txt: ${JSON.stringify(url.slice(0, 200))}`;
  if (host.length > 1 && host.endsWith('.')) host = host.slice(0, -1);
  return { scheme: parsed.protocol.slice(0, -1), host, port: parsed.port };
}

/**
 * The robots.txt URL for a page URL: scheme and host lower-case (an IDN host
 * as punycode), the port unless it is the scheme's default, path /robots.txt
 * (the host as urlOrigin() gives it). Two page URLs share a robots.txt
 * exactly when their robotsUrl() is equal.
 * A string that is not an absolute URL with a host is a TypeError.
 */
export function robotsUrl(url: string): string {
  if (typeof url !== 'string') throw new TypeError(`url must be a string, got ${url === null ? 'null' : typeof url}`);
  const origin = urlOrigin(url);
  if (typeof origin === 'string') throw new TypeError(origin);
  return `${origin.scheme}://${origin.host}${origin.port === '' ? '' : `:${origin.port}`}/robots.txt`;
}

const SPECIAL_SCHEMES = new Set(['http:', 'https:', 'ftp:', 'ws:', 'wss:']);

/**
 * A domain as WHATWG URL writes an http host (IDNA to punycode, lower case),
 * '' when it is not one: what node:url's domainToASCII does, in any runtime.
 * (A name holding a URL delimiter is no domain; domainToASCII would cut it there.)
 */
function domainToASCII(name: string): string {
  if (name === '' || /[/?#@:\\[\]%\s<>^|]/.test(name)) return '';
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return '';
  }
}
