// A path, not a URL, handed to the engine. The engine reads any string as
// Google's GetPathParamsQuery does, so a path that starts with "//" would be a
// scheme-relative URL: "//evil/public" is the host "evil" and the path
// "/public". Callers that hold a path (the compat entry, RobotsCache, a server's
// request path) hand it over through fromPath.

/**
 * The string the engine reads as exactly this path (with its parameters and
 * query): the path itself when it starts with one '/' (or '?' or ';'), else
 * behind an empty authority ("//"), so that "//evil/public" is checked as the
 * path "//evil/public" and not as the host "evil". A path that starts with none
 * of '/', '?', ';' is read as if it had a leading '/'.
 */
export function fromPath(path: string): string {
  if (typeof path !== 'string') throw new TypeError(`path must be a string, got ${path === null ? 'null' : typeof path}`);
  const c = path.charCodeAt(0);
  // (Two comparisons for the common path: it is handed over as it is.)
  if (c === 0x2f ? path.charCodeAt(1) !== 0x2f : c === 0x3f || c === 0x3b) return path;
  return c === 0x2f ? '//' + path : '///' + path;
}

/** @internal What a fetch of the (absolute) URL requests: its path and query as
 * WHATWG parses them (a '\' is a '/', dot segments removed, escapes added), for
 * the engine. RobotsCache's verdicts are for the path its crawler will fetch,
 * of the origin whose robots.txt it read (robotsUrl parses the URL so too). */
export function requestedPath(url: string): string {
  // Most crawled URLs are read alike by both (and a URL parse is a quarter of a
  // cached verdict's time): http(s), a plain host, then only characters WHATWG
  // keeps as they are, and no dot segment. The tests hold this to new URL().
  if (PLAIN_URL.test(url) && !DOT_SEGMENT.test(url)) return url;
  const parsed = new URL(url);
  // (search is '' for an empty query too, which a request keeps: "/?".)
  const href = parsed.href;
  const hash = href.indexOf('#');
  const empty = parsed.search === '' && href.charCodeAt((hash === -1 ? href.length : hash) - 1) === 0x3f;
  let pathname = parsed.pathname;
  // The URL standard leaves no dot segment in a path that starts with '/'; Node
  // 20's parser (ada 2.9) leaves some, after a segment that starts with '.'
  // ("/x/.a/../b"). The verdict is for the path the standard gives.
  if (pathname.charCodeAt(0) === 0x2f && LEFT_DOT_SEGMENT.test(pathname)) pathname = withoutDotSegments(pathname);
  return fromPath(pathname + (empty ? '?' : parsed.search));
}

const PLAIN_URL = /^https?:\/\/[a-z0-9.-]+(?::[0-9]+)?(?:[/?][\w\-.~!$&()*+,;=:@/%?]*)?$/i;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;
const LEFT_DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

/** A path (of a URL's pathname: starts with '/', no query) without its dot
 * segments, as the URL standard's path state removes them ("." and ".." also as
 * "%2e"; ".." last, or ".", leaves the path ending in '/'). */
function withoutDotSegments(pathname: string): string {
  const segments = pathname.split('/').slice(1);
  const kept: string[] = [];
  segments.forEach((segment, i) => {
    const dots = segment.replace(/%2e/gi, '.');
    const last = i === segments.length - 1;
    if (dots === '..') kept.pop();
    if (dots !== '.' && dots !== '..') kept.push(segment);
    else if (last) kept.push('');
  });
  return '/' + kept.join('/');
}
