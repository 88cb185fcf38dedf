// One robots.txt fetch, classified as RFC 9309 2.3.1 and Google's
// interpretation say: ok (2xx, the body), unavailable (4xx but 429, too many
// redirects, a redirect loop: everything allowed), unreachable (5xx, 429,
// timeouts, network errors, truncated or invalid responses: everything
// disallowed). Redirects are followed here, by hand, so that they are counted.

import { robotsUrl } from '../engine/robots-url.js';
import { DEFAULT_MAX_OCTETS } from '../engine/robots-txt.js';
import { renamedOption } from '../engine/renamed-option.js';

/** The part of the fetch API used: Node's built-in fetch (undici) or a crawler's own. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

export type RobotsStatus = 'ok' | 'unavailable' | 'unreachable';

export interface FetchRobotsOptions {
  /** The User-Agent header sent on every request of the chain (required: a crawler says who it is). */
  userAgentHeader: string;
  fetch?: FetchFunction;
  /** Octets of the body read; reading stops there (default and minimum 512,000 = 500 KiB, RFC 9309 2.5; Infinity reads it whole). */
  maxOctets?: number;
  /** @deprecated Use maxOctets (octets of the body, not memory). Kept until 0.2; given both, they must agree. */
  maxBytes?: number;
  /** Whole chain, body included (default 10 s). */
  timeoutMs?: number;
  /** Consecutive redirects followed (default 5: RFC 9309 2.3.1.2 asks for at least five). */
  maxRedirects?: number;
}

/** fetchRobots's default timeoutMs. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Node fires a longer timer at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface FetchOutcome {
  status: RobotsStatus;
  /** Why, in words: 'http 200', 'http 503', 'timeout after 10000 ms', 'more than 5 redirects', ... */
  reason: string;
  /** HTTP status of the response that decided the outcome; undefined when the last request got none. */
  httpStatus: number | undefined;
  /** The last URL requested (after redirects). */
  finalUrl: string;
  redirects: number;
  /** ok: the body's first maxOctets (decoded from gzip, br or deflate). */
  body: Uint8Array | undefined;
  /** ok: reading stopped at maxOctets (what follows, if anything, was not read). */
  reachedLimit: boolean;
  /** Headers of the last response (for caching), when one came. */
  headers: Headers | undefined;
  /** unreachable: how long the server asked to wait (Retry-After on a 429 or 5xx), in ms. */
  retryAfterMs: number | undefined;
}

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

class Timeout extends Error {}

/** What one response of a robots.txt fetch means (RFC 9309 2.3.1, Google's reading). */
export type ResponseStep =
  | { status: 'ok' | 'unavailable' | 'unreachable'; reason: string }
  | { status: 'redirect'; next: string; reason: string };

/**
 * The policy for one response, shared by every reader of robots.txt fetches
 * (fetchRobots over HTTP, classify over WARC captures): 2xx the rules; a
 * 301/302/303/307/308 with a usable Location is followed (at most maxRedirects
 * in a row, no loop, http(s) only), other 3xx unavailable (Google: a redirect
 * chain that does not end in a robots.txt is a 404); 4xx but 429 unavailable;
 * 5xx, 429 and anything else unreachable. `visited` holds the URLs of the chain so far.
 */
export function responseStep(code: number, location: string | null, current: string, visited: ReadonlySet<string>, redirects: number, maxRedirects = MAX_REDIRECTS): ResponseStep {
  if (code >= 200 && code <= 299) return { status: 'ok', reason: `http ${code}` };
  if (code >= 300 && code <= 399) {
    if (!REDIRECT_STATUSES.has(code) || location === null) return { status: 'unavailable', reason: `http ${code} without a redirect` };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { status: 'unavailable', reason: `http ${code} to an invalid location` };
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return { status: 'unavailable', reason: `http ${code} to a ${next.protocol} URL` };
    next.hash = '';
    if (visited.has(next.href)) return { status: 'unavailable', reason: `redirect loop at ${next.href}` };
    if (redirects >= maxRedirects) return { status: 'unavailable', reason: `more than ${maxRedirects} redirects` };
    return { status: 'redirect', next: next.href, reason: `http ${code}` };
  }
  if (code >= 400 && code <= 499 && code !== 429) return { status: 'unavailable', reason: `http ${code}` };
  // 5xx, 429, and anything outside the classes HTTP defines.
  return { status: 'unreachable', reason: `http ${code}` };
}

/** fetchRobots's options as given, checked, with their defaults (a JavaScript caller may leave any out or pass anything). */
function checkedOptions(options: FetchRobotsOptions): Required<Omit<FetchRobotsOptions, 'fetch' | 'maxBytes'>> & { fetch: FetchFunction } {
  if (options === null || typeof options !== 'object') throw new TypeError('fetchRobots options must be an object, e.g. { userAgentHeader: "FooBot/1.0 (+https://example.com/bot)" }');
  const { userAgentHeader, fetch = globalThis.fetch, timeoutMs = DEFAULT_TIMEOUT_MS, maxRedirects = MAX_REDIRECTS } = options;
  if (typeof userAgentHeader !== 'string' || userAgentHeader.trim() === '' || /[\r\n\0]/.test(userAgentHeader)) {
    throw new TypeError('userAgentHeader must be a non-empty header value, e.g. "FooBot/1.0 (+https://example.com/bot)"');
  }
  if (typeof fetch !== 'function') throw new TypeError('fetch must be a function');
  // As parse() checks its maxOctets.
  const { value: maxOctets = DEFAULT_MAX_OCTETS, given } = renamedOption<number>(options, 'maxOctets', 'maxBytes');
  if (typeof maxOctets !== 'number' || !(maxOctets >= DEFAULT_MAX_OCTETS)) {
    throw new RangeError(`${given} must be at least ${DEFAULT_MAX_OCTETS} (RFC 9309 2.5), or Infinity; got ${shown(maxOctets)}`);
  }
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new RangeError(`timeoutMs must be a positive number of ms up to ${MAX_TIMER_MS}, got ${shown(timeoutMs)}`);
  }
  if (typeof maxRedirects !== 'number' || !Number.isInteger(maxRedirects) || maxRedirects < 0) {
    throw new RangeError(`maxRedirects must be a whole number from 0 (RFC 9309 2.3.1.2 asks for at least ${MAX_REDIRECTS}), got ${shown(maxRedirects)}`);
  }
  // (A fraction is cut off, as parse() cuts: reading stops at a whole octet.)
  return { userAgentHeader, fetch, maxOctets: Math.floor(maxOctets), timeoutMs, maxRedirects };
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 100)) : String(value);
}

/**
 * The robots.txt of a URL's origin (any page URL: robotsUrl() names the file),
 * fetched and classified. Throws a TypeError or RangeError for a URL that is
 * not one or options out of range; every fetch failure is an outcome.
 */
export async function fetchRobots(url: string, given: FetchRobotsOptions): Promise<FetchOutcome> {
  const options = checkedOptions(given);
  const start = robotsUrl(url);
  const fetchFn = options.fetch;
  const maxRedirects = options.maxRedirects;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced against every await, so a custom fetch that ignores the signal still times out.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Timeout(`timeout after ${options.timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
  });
  deadline.catch(() => {});
  const headers = {
    'user-agent': options.userAgentHeader,
    accept: 'text/plain, */*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
  };
  const visited = new Set<string>();
  let redirects = 0;
  let current = start;
  let last: Response | undefined;
  // A chain whose last body was read to its end has nothing left to free.
  let finished = false;
  const outcome = (status: RobotsStatus, reason: string, extra: Partial<FetchOutcome> = {}): FetchOutcome => ({
    status,
    reason,
    httpStatus: last?.status,
    finalUrl: current,
    redirects,
    body: undefined,
    reachedLimit: false,
    headers: last?.headers,
    retryAfterMs: undefined,
    ...extra,
  });
  try {
    for (;;) {
      visited.add(current);
      last = undefined;
      const response = await Promise.race([
        fetchFn(current, { method: 'GET', headers, redirect: 'manual', signal: controller.signal }),
        deadline,
      ]);
      if (!(response instanceof Response) && !isResponseLike(response)) {
        return outcome('unreachable', 'fetch returned something that is not a Response');
      }
      last = response;
      const code = response.status;
      const step = responseStep(code, response.headers.get('location'), current, visited, redirects, maxRedirects);
      if (step.status === 'ok') {
        const read = await readLimited(response, options.maxOctets, deadline);
        finished = !read.reachedLimit;
        return outcome('ok', step.reason, read);
      }
      await discard(response);
      if (step.status === 'redirect') {
        redirects++;
        current = step.next;
        continue;
      }
      return outcome(step.status, step.reason, step.status === 'unreachable' ? { retryAfterMs: retryAfter(response.headers) } : {});
    }
  } catch (error) {
    const reason = error instanceof Timeout ? error.message : `network error: ${describe(error)}`;
    return outcome('unreachable', reason);
  } finally {
    clearTimeout(timer);
    // Frees the connection of a chain ended by the deadline, an error or the limit. A finished one is left alone:
    // its abort would free nothing, and an abort makes an error, whose stack is taken, for every origin of a crawl.
    if (!finished && !controller.signal.aborted) controller.abort();
  }
}

/** The body's first `limit` octets; stops reading there. Throws when the body breaks off. */
async function readLimited(
  response: Response,
  limit: number,
  deadline: Promise<never>,
): Promise<{ body: Uint8Array; reachedLimit: boolean }> {
  if (response.body === null) return { body: new Uint8Array(0), reachedLimit: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let reachedLimit = false;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      if (!(value instanceof Uint8Array)) throw new TypeError('the body stream gave something other than octets');
      const take = Math.min(value.length, limit - size);
      chunks.push(take === value.length ? value : value.subarray(0, take));
      size += take;
      // At the limit we stop, whether or not more would have come.
      if (size === limit) {
        reachedLimit = true;
        break;
      }
    }
  } finally {
    // Not reading the rest: closing the stream drops the connection.
    reader.cancel().catch(() => {});
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body, reachedLimit };
}

/** Retry-After (RFC 9110 10.2.3): delay-seconds, or an HTTP date read against the response's Date. */
function retryAfter(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const date = Date.parse(headers.get('date') ?? '');
  const wait = at - (Number.isNaN(date) ? Date.now() : date);
  return wait > 0 ? wait : undefined;
}

async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // A body we do not read may fail however it likes.
  }
}

function isResponseLike(r: unknown): r is Response {
  return typeof r === 'object' && r !== null && typeof (r as Response).status === 'number' && typeof (r as Response).headers?.get === 'function';
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
    const inner = cause instanceof Error ? `: ${cause.message}` : '';
    return `${code !== undefined ? `${String(code)} ` : ''}${error.message}${inner}`;
  }
  return String(error);
}
