// What reading a WARC file of robots.txt captures yields, whichever reader
// reads it (warc-fast-records.ts, warcio-captures.ts; warc-captures.ts picks):
// each `response` record's capture in file order, the damage that ends a file,
// or word that no record could be read.

/** One response record's capture. */
export interface CaptureRead {
  kind: 'capture';
  /** WARC-Target-URI as the record gives it, and its key (captureKey). */
  url: string;
  key: string;
  /** WARC-Date, ms (NaN when it does not read). */
  date: number;
  /** HTTP status; 0 when the response had none that reads. */
  status: number;
  location: string | null;
  /** A 2xx's payload, decoded (chunks, Content-Encoding), no longer than maxOctets; else null. It may
   * be a view of the reader's own buffer: copy it before the next item is asked for. */
  body: Uint8Array | null;
  /** The payload went on past maxOctets (body holds its first maxOctets octets). */
  truncated: boolean;
  /** Why the capture cannot be used (a body that does not decode, a record cut short). */
  damaged?: string;
  /** The record's offset in the file, uncompressed when the file is gzipped. */
  offset: number;
}

/** The file cannot be read past `offset` (its rest is skipped); captures from `trustedBefore` on may come from the damage. */
export interface DamageRead {
  kind: 'damage';
  offset: number;
  why: string;
  trustedBefore: number;
}

export type WarcReadItem = CaptureRead | DamageRead | { kind: 'empty' };

export interface CaptureReadOptions {
  maxOctets: number;
  /** Whether a capture of `key` dated `date` is wanted (else its body is not decoded, nor is it yielded). */
  wants?(key: string, date: number): boolean;
  /** Octets of the file read so far, said as they are. */
  progress?(octets: number): void;
  /** Counted as the file is read. */
  counts: { records: number; responses: number };
}

/**
 * A robots.txt URL that new URL() gives back as it is: http or https, a host of dot-separated labels of
 * lower-case ASCII letters, digits and '-' (none empty, none an IDNA "xn--" label, which must decode; the last
 * not beginning with a digit, which could read as an IPv4 address), no port, the path /robots.txt and nothing
 * after it. Nearly every capture's: its key without parsing it (new URL() was a tenth of robots index's parsing).
 */
const PLAIN_ROBOTS_URL = /^https?:\/\/(?:(?!xn--)[a-z0-9-]+\.)*(?!xn--)[a-z-][a-z0-9-]*\/robots\.txt$/;

/** Whether new URL() gives the robots.txt URL back as it is (PLAIN_ROBOTS_URL): its parts are where they stand. */
export function isPlainRobotsUrl(url: string): boolean {
  return PLAIN_ROBOTS_URL.test(url);
}

/** The key of a URL in the index: new URL()'s form, no fragment, the host without a trailing dot
 * (as urlOrigin() names it); undefined when it is none. */
export function captureKey(url: string): string | undefined {
  if (isPlainRobotsUrl(url)) return url;
  try {
    const u = new URL(url);
    if (url.includes('#')) u.hash = ''; // (the setter writes the URL again: only for one that may have a fragment)
    if (u.hostname.length > 1 && u.hostname.endsWith('.')) u.hostname = u.hostname.slice(0, -1);
    return u.href;
  } catch {
    return undefined;
  }
}
