// `robots fetch URL`: a site's robots.txt fetched through the crawler's policy
// (fetchRobots: status codes, redirects, the size limit, RFC 9309 2.3 and
// Google's interpretation), and what came of it in words: which robots.txt,
// the outcome and what it means for the site's URLs, and for the URL given:
// its verdict for the crawler, the sitemaps and the crawler's crawl-delay.
import { writeFileSync } from 'node:fs';
import { fetchRobots, parse, productToken, robotsUrl, type FetchOutcome, type Verdict } from '../index.js';
import { ruleText } from '../engine/explanation.js';
import { CliError, reason } from './errors.js';
import { thousands } from './numbers.js';
import { checkAgentNames, parseAgents, parseFormat, parseMaxOctets, parseProfile } from './options.js';
import { warnIfNotRobotsTxt } from './robots-file.js';
import { echoUrl } from './url-echo.js';
import { requestedPath } from '../engine/from-path.js';

declare const VERSION: string; // set by the build (package.json)

export interface FetchOptions {
  userAgent?: string;
  agent?: string;
  profile: string;
  timeoutMs: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  out?: string;
  format?: string;
}

/** What each outcome means for the site's URLs. */
const MEANING: Record<FetchOutcome['status'], string> = {
  ok: 'its rules apply',
  unavailable: 'no robots.txt: every URL is allowed',
  unreachable: 'every URL is disallowed until it can be fetched (RFC 9309 2.3.1.3)',
};

export async function fetchCommand(url: string, options: FetchOptions): Promise<number> {
  const json = parseFormat(options.format, 'fetch');
  // Other schemes have robots.txt too (RFC 9309 2.3), but this fetch speaks HTTP only.
  const scheme = URL.canParse(url) ? new URL(url).protocol : 'http:';
  if (scheme !== 'http:' && scheme !== 'https:') throw new CliError(`fetch takes an http or https URL, got "${scheme}"`);
  let target: string;
  try {
    target = robotsUrl(url);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const timeoutMs = Number(options.timeoutMs);
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new CliError(`--timeout-ms must be a positive number of milliseconds, got "${options.timeoutMs}"`);
  const maxOctets = parseMaxOctets(options);
  const userAgentHeader = options.userAgent ?? `robots-wasm/${VERSION}`;
  if (/[\r\n\0]/.test(userAgentHeader) || userAgentHeader.trim() === '') throw new CliError('--user-agent must be a non-empty header value');
  const profile = parseProfile(options.profile);
  // The crawler the verdict is for: --agent, else the product token of --user-agent, else Googlebot.
  const agents = parseAgents([options.agent ?? ((options.userAgent !== undefined && productToken(options.userAgent)) || 'Googlebot')]);
  checkAgentNames(agents, profile, maxOctets); // (before any fetch)
  const got = await fetchRobots(target, { userAgentHeader, maxOctets, timeoutMs });
  if (got.status === 'ok' && got.body !== undefined) warnIfNotRobotsTxt(target, got.body);
  const meaning = verdictOf(got, url, agents, profile, maxOctets);
  if (options.out !== undefined && got.body !== undefined) {
    try {
      writeFileSync(options.out, got.body);
    } catch (e) {
      throw new CliError(`cannot write ${options.out}: ${reason(e)}`);
    }
  }
  const report = {
    robotsUrl: target,
    status: got.status,
    httpStatus: got.httpStatus ?? null,
    reason: got.reason,
    finalUrl: got.finalUrl,
    redirects: got.redirects,
    octets: got.body?.length ?? null,
    reachedLimit: got.reachedLimit,
    retryAfterMs: got.retryAfterMs ?? null,
    url: echoUrl(url),
    agent: agents.join(','),
    allowed: meaning.verdict.allowed,
    line: meaning.verdict.line,
    rule: meaning.verdict.rule ?? null,
    sitemaps: meaning.sitemaps,
    crawlDelay: meaning.crawlDelay ?? null,
  };
  if (json) {
    process.stdout.write(JSON.stringify(report) + '\n');
  } else {
    const lines = [
      `robots.txt:  ${target}`,
      `outcome:     ${got.status} (${got.reason}): ${MEANING[got.status]}`,
    ];
    if (got.redirects > 0) lines.push(`redirects:   ${got.redirects}, to ${got.finalUrl}`);
    if (got.body !== undefined) {
      lines.push(`body:        ${thousands(got.body.length)} octets${got.reachedLimit ? `, cut at the limit (${thousands(got.body.length)}): the rest is not read` : ''}${options.out !== undefined ? `, written to ${options.out}` : ''}`);
    }
    if (got.retryAfterMs !== undefined) lines.push(`retry after: ${Math.round(got.retryAfterMs / 1000)} s (the server asked)`);
    const why = got.status === 'ok' ? (meaning.verdict.rule === undefined ? 'no rule matched' : ruleText(meaning.verdict)) : got.status === 'unavailable' ? 'no robots.txt' : 'robots.txt unreachable';
    lines.push(`verdict:     ${meaning.verdict.allowed ? 'allowed' : 'disallowed'} for ${agents.join(', ')}: ${echoUrl(url)} (${meaning.verdict.line > 0 ? `line ${meaning.verdict.line}: ` : ''}${why})`);
    meaning.sitemaps.forEach((s, i) => lines.push(`${i === 0 ? 'sitemaps:   ' : '            '} ${s}`));
    if (meaning.crawlDelay !== undefined) lines.push(`crawl-delay: ${meaning.crawlDelay} s for ${agents.join(', ')}`);
    process.stdout.write(lines.join('\n') + '\n');
  }
  return got.status === 'ok' ? 0 : 1;
}

/** What the outcome means for the URL given and the crawler: its verdict, the sitemaps, the crawl-delay. */
function verdictOf(got: FetchOutcome, url: string, agents: string[], profile: 'rfc' | 'google', maxOctets: number): { verdict: Verdict; sitemaps: string[]; crawlDelay?: number } {
  if (got.status !== 'ok' || got.body === undefined) {
    // No robots.txt: every URL allowed; unreachable: every URL disallowed (RFC 9309 2.3.1.3).
    return { verdict: { allowed: got.status === 'unavailable', line: 0 }, sitemaps: [] };
  }
  const robots = parse(got.body, { profile, maxOctets });
  try {
    // For the path a fetch of the URL requests (WHATWG's, as the origin fetched is): as written,
    // "http://h\private/x" is the path "/x" of a host "h\private" to the core.
    return { verdict: robots.explain(requestedPath(url), agents), sitemaps: [...robots.sitemaps], crawlDelay: robots.crawlDelay(agents) };
  } finally {
    robots.dispose();
  }
}
