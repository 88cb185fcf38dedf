// Where a page's robots.txt lives: the page's origin (scheme, host, port) with
// the path /robots.txt (RFC 9309 2.3). That robots.txt speaks for that origin
// only: another subdomain, scheme or port has its own.

/**
 * The robots.txt URL for a page URL: scheme and host lower-case (an IDN host
 * as punycode), the port unless it is the scheme's default, path /robots.txt.
 * Two page URLs share a robots.txt exactly when their robotsUrl() is equal.
 * A string that is not an absolute URL with a host is a TypeError.
 */
export function robotsUrl(url: string): string {
  if (typeof url !== 'string') throw new TypeError(`url must be a string, got ${url === null ? 'null' : typeof url}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`not an absolute URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  // WHATWG URL already does IDN, case and default ports for http, https, ftp, ws, wss.
  let host = parsed.host;
  if (!SPECIAL_SCHEMES.has(parsed.protocol) && parsed.hostname !== '') {
    // Other schemes keep an opaque (percent-encoded, case-kept) host: apply the same rules.
    let name: string;
    try {
      name = decodeURIComponent(parsed.hostname);
    } catch {
      name = '';
    }
    name = name.startsWith('[') ? name.toLowerCase() : domainToASCII(name);
    if (name === '') throw new TypeError(`not a valid host in URL: ${JSON.stringify(url.slice(0, 200))}`);
    host = parsed.port === '' ? name : `${name}:${parsed.port}`;
  }
  if (host === '') throw new TypeError(`URL has no host, so no robots.txt: ${JSON.stringify(url.slice(0, 200))}`);
  return `${parsed.protocol}//${host}/robots.txt`;
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
