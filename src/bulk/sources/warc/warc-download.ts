// One WARC file of a list (warc-list.ts) downloaded over http(s) to a local
// file, with bounded retries: what may pass (a 5xx, 429 or 408, a network
// error, a timeout, a body cut short or too slow) is tried again after an
// exponential back-off, or after the server's Retry-After on a 503 or 429;
// what will not (another 4xx, too many redirects, a body over the size limit)
// fails at once. node:http rather than fetch(): the octets exactly as served
// (fetch would inflate a `Content-Encoding: gzip` reply), and a socket timeout
// that is an idle timeout (a large file at a slow rate is fine; a server that
// stops sending is not). An attempt is bounded however the server behaves: the
// idle timeout, a slowest rate over each timeout's span (a server that sends
// an octet a second never goes idle), a count of 1xx replies, and a size (a
// body that never ends would fill the disk).
import { createWriteStream, rmSync } from 'node:fs';
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { BulkError, reason } from '../../base/errors.js';

export interface DownloadOptions {
  /** The User-Agent header sent. */
  userAgent: string;
  /** An attempt with no octets (connecting, waiting for the reply, or between two reads) for this long fails;
   * so does a reply (headers and body) that brings fewer than SLOWEST_OCTETS_PER_SECOND a second over this span. */
  timeoutMs: number;
  /** A body longer than this fails, not retried (by its Content-Length before a read, else when it passes it). */
  maxOctets: number;
  /** Attempts after the first, for failures that may pass. */
  retries: number;
  /** The first wait before a retry; it doubles at each one ... */
  backoffMs: number;
  /** ... up to this. */
  backoffCapMs: number;
  /** A server's Retry-After is waited for up to this. */
  retryAfterCapMs: number;
  /** Ends the download (the consumer stopped): it rejects with the signal's reason, and is not retried. */
  signal: AbortSignal;
  /** Before each retry: why the attempt failed, its number, the wait. */
  onRetry?(why: string, attempt: number, waitMs: number): void;
  /** Octets received (for the progress bar). */
  onOctets?(n: number): void;
}

export const DOWNLOAD_DEFAULTS = { timeoutMs: 30_000, maxOctets: 4096 * 2 ** 20, retries: 5, backoffMs: 1_000, backoffCapMs: 60_000, retryAfterCapMs: 600_000 };

/** A reply slower than this over a timeout's span fails (and is retried): a trickle is not a download. */
export const SLOWEST_OCTETS_PER_SECOND = 1024;

/** Node's codes for a server certificate that does not verify (OpenSSL's, and its own for a wrong name). */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/** Redirects followed in one attempt (as RFC 9309 asks of a robots.txt fetch: a CDN may send one). */
const MAX_REDIRECTS = 5;

/** 1xx replies before the reply (a server may send a 100 or a 103 or two; one that sends them without end is never done). */
export const MAX_INFORMATIONAL = 32;

/** node:http and node:https (with node:tls: ~10 ms of a process's CPU to load), loaded by the first download: robots
 * index and classify import this file for --robots-warc-list, and most of their runs download nothing. */
let clients: { http: typeof Http; https: typeof Https } | undefined;

/** Why a download gave up, in words, after how many attempts. */
export class DownloadFailed extends Error {
  constructor(readonly why: string, readonly attempts: number) {
    super(`${why}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}`);
  }
}

/** An attempt's failure: whether another may succeed, and how long the server asked to wait. */
class AttemptFailed extends Error {
  constructor(message: string, readonly retryable: boolean, readonly retryAfterMs?: number) {
    super(message);
  }
}

/** Downloads url to file (overwritten); its octets. Throws DownloadFailed, a BulkError when the
 * file cannot be written (the disk, not the server: retrying would not help, nor would other files). */
export async function download(url: string, file: string, o: DownloadOptions): Promise<number> {
  clients ??= { http: (await import('node:http')).default, https: (await import('node:https')).default };
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptOnce(new URL(url), file, o, 0);
    } catch (e) {
      if (o.signal.aborted) throw o.signal.reason;
      if (e instanceof BulkError) throw e;
      const failed = e instanceof AttemptFailed ? e : new AttemptFailed(reason(e), true);
      if (!failed.retryable || attempt > o.retries) throw new DownloadFailed(failed.message, attempt);
      const backoff = Math.min(o.backoffCapMs, o.backoffMs * 2 ** (attempt - 1));
      const wait = failed.retryAfterMs === undefined ? backoff : Math.min(failed.retryAfterMs, o.retryAfterCapMs);
      o.onRetry?.(failed.message, attempt, wait);
      await sleep(wait, undefined, { signal: o.signal }).catch(() => {
        throw o.signal.reason;
      });
    }
  }
}

function attemptOnce(url: URL, file: string, o: DownloadOptions, redirects: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const get = url.protocol === 'https:' ? clients!.https.get : clients!.http.get; // (loaded by download())
    let responded = false;
    let octets = 0;
    const request = get(url, { headers: { 'user-agent': o.userAgent, 'accept-encoding': 'identity' }, timeout: o.timeoutMs, signal: o.signal }, (response) => {
      responded = true;
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        response.resume();
        if (redirects >= MAX_REDIRECTS) return reject(new AttemptFailed(`more than ${MAX_REDIRECTS} redirects`, false));
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          return reject(new AttemptFailed(`http ${status} to a Location that is not a URL: ${location}`, false));
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return reject(new AttemptFailed(`http ${status} to ${next.protocol} (http and https only)`, false));
        return resolve(attemptOnce(next, file, o, redirects + 1));
      }
      if (status !== 200) {
        response.resume();
        const retryable = status >= 500 || status === 429 || status === 408;
        const retryAfter = status === 503 || status === 429 ? retryAfterMs(response.headers['retry-after'], response.headers.date) : undefined;
        return reject(new AttemptFailed(`http ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`, retryable, retryAfter));
      }
      const promised = response.headers['content-length'] === undefined ? undefined : Number(response.headers['content-length']);
      if (promised !== undefined && promised > o.maxOctets) {
        response.destroy();
        return reject(new AttemptFailed(`Content-Length ${promised.toLocaleString('en-US')}: ${tooLong(o.maxOctets)}`, false));
      }
      response.on('data', (chunk: Buffer) => {
        octets += chunk.length;
        o.onOctets?.(chunk.length);
        if (octets > o.maxOctets) request.destroy(new AttemptFailed(tooLong(o.maxOctets), false));
      });
      let writeError: unknown;
      const out = createWriteStream(file);
      out.on('error', (e) => (writeError = e));
      pipeline(response, out).then(
        () => {
          // (A connection closed early ends the reply without an error: the length tells.)
          if (!response.complete || (promised !== undefined && octets !== promised)) {
            reject(new AttemptFailed(`cut short: ${octets} of ${promised ?? 'the'} octets`, true));
          } else resolve(octets);
        },
        (e) => {
          if (writeError !== undefined) {
            rmSync(file, { force: true });
            reject(new BulkError(`cannot write the download of ${url.href} to ${file}: ${reason(writeError)}`));
          } else reject(e instanceof AttemptFailed ? e : new AttemptFailed(`cut short: ${reason(e)} after ${octets} octets`, true));
        },
      );
    });
    // The reply (its headers too: they may trickle as well) brings its share at the slowest rate over
    // each timeout's span, judged a quarter span at a time; a quarter without an octet is left to the
    // idle timeout, which says so better.
    const least = Math.ceil((SLOWEST_OCTETS_PER_SECOND * o.timeoutMs) / 1000);
    const read: number[] = [];
    const slow = setInterval(() => {
      read.push(request.socket?.bytesRead ?? 0);
      if (read.length <= 4) return;
      const got = read[4] - read.shift()!;
      if (read[3] > read[2] && got < least) {
        request.destroy(new AttemptFailed(`slower than ${SLOWEST_OCTETS_PER_SECOND / 1024} KiB/s: ${got} octets in ${o.timeoutMs} ms (after ${octets})`, true));
      }
    }, o.timeoutMs / 4);
    request.once('close', () => clearInterval(slow));
    let informational = 0;
    request.on('information', () => {
      if (++informational > MAX_INFORMATIONAL) request.destroy(new AttemptFailed(`more than ${MAX_INFORMATIONAL} informational (1xx) replies`, false));
    });
    request.on('timeout', () => {
      request.destroy(new AttemptFailed(responded ? `no octets for ${o.timeoutMs} ms (after ${octets})` : `no reply for ${o.timeoutMs} ms`, true));
    });
    // (A certificate that does not verify will not verify on the next attempt either.)
    request.on('error', (e) => reject(e instanceof AttemptFailed ? e : new AttemptFailed(reason(e), !CERTIFICATE_ERROR.test((e as NodeJS.ErrnoException).code ?? ''))));
  });
}

function tooLong(maxOctets: number): string {
  return `longer than --warc-max-mb ${maxOctets / 2 ** 20} (${maxOctets.toLocaleString('en-US')} octets)`;
}

/** Retry-After (RFC 9110 10.2.3): delay-seconds, or an HTTP date read against the reply's Date;
 * anything else (-5, 1.5, soon) is no Retry-After, and the back-off is waited. */
function retryAfterMs(value: string | undefined, date: string | undefined): number | undefined {
  const v = value?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = httpDate(v);
  if (at === undefined) return undefined;
  const now = httpDate(date?.trim() ?? '') ?? Date.now();
  return Math.max(0, at - now);
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** RFC 9110 5.6.7's three forms: IMF-fixdate, RFC 850's, asctime's (GMT, though it says no zone). */
const HTTP_DATE = new RegExp(`^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`);

/** An HTTP date, ms; undefined for anything else (Date.parse alone reads "-5" as the year 2001). */
function httpDate(v: string): number | undefined {
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v.endsWith('GMT') ? v : `${v} GMT`);
  return Number.isNaN(at) ? undefined : at;
}
