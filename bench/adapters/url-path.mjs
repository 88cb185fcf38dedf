// The path (with params and query) of a URL string, for the libraries whose check
// takes a path rather than a URL. Plain string slicing, as a crawler would do it
// cheaply: no `new URL()`, which would also re-encode the path and change verdicts.
export function pathOf(url) {
  const scheme = url.indexOf('://');
  let start = 0;
  if (scheme >= 0) {
    start = url.length;
    for (let i = scheme + 3; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) { start = i; break; }
    }
  }
  let end = url.indexOf('#', start);
  if (end < 0) end = url.length;
  const path = url.slice(start, end);
  return path.startsWith('/') ? path : '/' + path;
}

/** The origin a robots.txt is served from, for URLs checked against it: that of the first absolute URL (https://example.com if none). */
export function originOf(urls) {
  const first = urls.find((u) => /^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(u)) ?? 'https://example.com/';
  return /** @type {RegExpMatchArray} */ (first.match(/^[^:]+:\/\/[^/?#]+/))[0];
}
