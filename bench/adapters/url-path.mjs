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
