// `robots fetch URL`: a site's robots.txt fetched through the crawler's policy
// (fetchRobots: status codes, redirects, the size limit, RFC 9309 2.3 and
// Google's interpretation), and what came of it in words: which robots.txt,
// the outcome and what it means for the site's URLs.
import { writeFileSync } from 'node:fs';
import { fetchRobots, robotsUrl, type FetchOutcome } from '../../index.js';
import { CliError, reason } from './errors.js';
import { thousands } from './numbers.js';
import { parseFormat, parseMaxBytes } from './options.js';

declare const VERSION: string; // set by the build (package.json)

export interface FetchOptions {
  userAgent?: string;
  timeoutMs: string;
  maxBytes: string;
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
  const json = parseFormat(options.format);
  let target: string;
  try {
    target = robotsUrl(url);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const timeoutMs = Number(options.timeoutMs);
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new CliError(`--timeout-ms must be a positive number of milliseconds, got "${options.timeoutMs}"`);
  const maxBytes = parseMaxBytes(options.maxBytes);
  const userAgentHeader = options.userAgent ?? `robots-wasm/${VERSION}`;
  if (/[\r\n\0]/.test(userAgentHeader) || userAgentHeader.trim() === '') throw new CliError('--user-agent must be a non-empty header value');
  const got = await fetchRobots(target, { userAgentHeader, maxBytes, timeoutMs });
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
    process.stdout.write(lines.join('\n') + '\n');
  }
  return got.status === 'ok' ? 0 : 1;
}
