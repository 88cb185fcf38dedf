// Why an engine's verdict differs from Google's, sorted into causes a reader can act on.
// Each disagreement goes to the first cause that applies, in this order (so a probe on a
// file that is not UTF-8 counts there, whatever rule decided it): errors thrown,
// /robots.txt itself, size limits, invalid UTF-8, non-ASCII, percent-encoding, URL
// normalisation, index.htm, `*` and `$`, user-agent matching, group merging, precedence and ties. What decides is read from the file and
// URL and from the rule Google matched (its line), not from the engine's code: a heuristic,
// and the example beside each count lets the reader check it.

/** The causes, in the order they are tried. */
export const CAUSES = [
  'errors thrown',
  // RFC 9309 2.2.2: /robots.txt is implicitly allowed, which Google's parser does not do
  // (its rules decide that path as any other): an engine that follows the RFC differs there.
  '/robots.txt itself',
  'size limits',
  'invalid UTF-8',
  'non-ASCII',
  'percent-encoding',
  // The URL's path and query as a WHATWG parser gives them (ada in nzrsky's fork, Node's URL)
  // are not its octets: an empty query dropped, dot segments resolved, `\` read as `/`, a
  // space or quote percent-encoded. Google matches the octets as written.
  'URL normalisation',
  'index.htm',
  '`*` and `$`',
  'user-agent matching',
  'group merging',
  'precedence and ties',
];

const GOOGLE_MAX_OCTETS = 500 * 1024;
const strict = new TextDecoder('utf-8', { fatal: true });

/** Per file, what the classification reads from it (computed once per body). */
export function fileFacts(bytes) {
  let validUtf8 = true;
  let text;
  try { text = strict.decode(bytes); } catch { validUtf8 = false; text = new TextDecoder().decode(bytes); }
  const lines = text.split(/\r\n|\r|\n/);
  /** user-agent values, lower case, and how many groups each opens */
  const agents = [];
  let inAgents = false;
  for (const l of lines) {
    const m = /^\s*([A-Za-z-]+)\s*:?\s*([^#]*)/.exec(l);
    const key = m?.[1].toLowerCase();
    if (m && key === 'user-agent') { agents.push({ value: m[2].trim().toLowerCase(), opens: !inAgents }); inAgents = true; }
    else if (key) inAgents = false;
  }
  return { octets: bytes.length, validUtf8, nonAscii: /[^\x00-\x7f]/.test(text), lines, agents };
}

/** The URL names /robots.txt itself (no query: RFC 9309's implicit allow is for that resource). */
function isRobotsTxtUrl(url) {
  return /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*\/robots\.txt(?:#.*)?$/i.test(url) || url === '/robots.txt';
}

/** Whether a WHATWG URL parser rewrites the URL's path and query (an empty path aside: it reads as `/`). */
function rewrittenByUrlParser(url) {
  const written = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*/i, '').replace(/#.*$/s, '') || '/';
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search !== written;
  } catch {
    return false;
  }
}

/** The cause of one disagreement: { facts, agent, url, googleLine (0: none), threw }. */
export function causeOf({ facts, agent, url, googleLine, threw }) {
  if (threw) return 'errors thrown';
  if (isRobotsTxtUrl(url)) return '/robots.txt itself';
  if (facts.octets > GOOGLE_MAX_OCTETS) return 'size limits';
  if (!facts.validUtf8) return 'invalid UTF-8';
  if (facts.nonAscii || /[^\x00-\x7f]/.test(url)) return 'non-ASCII';
  const rule = googleLine > 0 ? facts.lines[googleLine - 1] ?? '' : '';
  const value = rule.replace(/^[^:]*:?/, '').replace(/#.*/, '').trim();
  if (value.includes('%') || /%[0-9a-f]{2}/i.test(url)) return 'percent-encoding';
  if (rewrittenByUrlParser(url)) return 'URL normalisation';
  if (/index\.html?$/i.test(value)) return 'index.htm';
  if (/[*$]/.test(value)) return '`*` and `$`';
  const a = agent.toLowerCase();
  const named = facts.agents.filter((g) => g.value === a);
  if (facts.agents.some((g) => g.value !== a && g.value !== '*' && (g.value.startsWith(a) || g.value.includes(a) || a.startsWith(g.value.replace(/[\s/*].*$/, '') || '\0')))) return 'user-agent matching';
  if (named.length > 1 || facts.agents.filter((g) => g.value === '*').length > 1) return 'group merging';
  return 'precedence and ties';
}

/**
 * Tallies causes: add(cause, example, lineOnly) counts the verdicts that differ (count) and
 * the probes where only the matching line does (lineOnly), keeping the first example of
 * each cause, one where the verdict differs when there is one.
 */
export function causeTally() {
  /** @type {Record<string, { count: number, lineOnly: number, example: string }>} */
  const causes = {};
  return {
    causes,
    add(cause, example, lineOnly = false) {
      const c = (causes[cause] ??= { count: 0, lineOnly: 0, example });
      if (lineOnly) c.lineOnly++;
      else if (c.count++ === 0 && c.lineOnly > 0) c.example = example;
    },
  };
}
