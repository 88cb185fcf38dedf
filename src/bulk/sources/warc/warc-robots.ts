// A host's robots.txt as the WARC captures say (warc-index.ts), read in the
// thread that needs it: its capture (the one the cache's policy keeps among
// the URL's: capture-choice.ts) and that capture's HTTP outcome under the same
// policy as RobotsCache (fetch-robots.ts responseStep), redirects followed among the
// captures (up to 5 hops, across hosts: the rules of the file reached apply
// to the original host).
import { openSync, readSync } from 'node:fs';
import { responseStep } from '../../../crawler/fetch-robots.js';
import type { Origin } from '../../hosts/origin.js';
import { BulkError, reason } from '../../base/errors.js';
import { captureKey, type WarcIndexData } from './warc-index.js';

/** What a host's robots.txt is: the rules (ok), none captured (missing), or an HTTP outcome that decides alone. */
export type HostRobots =
  | { kind: 'ok'; body: Uint8Array; http: number }
  | { kind: 'missing'; http?: number }
  | { kind: 'unavailable' | 'unreachable'; http?: number; why: string };

/** Octets copied into bodies of their own, and octets of the spill read from its file (tests hold the audit's
 * reads to none copied, and none read again of an index's shard read whole: counts, not a clock). */
export const robotsBodyWork = { copied: 0, read: 0 };

export class WarcRobots {
  /** The spill's descriptor, opened on first need; it lives as long as the thread. */
  private fd = -1;
  /** The spill's octets read ahead: window[0, windowHeld) are those at windowAt. */
  private readonly window: Buffer;
  private windowAt = 0;
  private windowHeld = 0;

  /**
   * views: each body a view of the window, valid until the next resolve (for a caller done with a body before it
   * asks the next, as the audit's sites are: no copy of its own made, and a window of more bodies per read).
   */
  constructor(private readonly data: WarcIndexData, private readonly views = false) {
    this.window = Buffer.allocUnsafe(views ? 1 << 20 : 1 << 16);
  }

  /** The robots.txt of the origin (its host without a trailing dot), following redirects among the captures.
   * key: its robots.txt URL's capture key when the caller has it (a key of the captures: not parsed again). */
  resolve(origin: Origin, key?: string): HostRobots {
    const scheme = origin.scheme === '' ? 'http' : origin.scheme;
    let url = key ?? captureKey(`${scheme}://${origin.host}${origin.port === '' ? '' : `:${origin.port}`}/robots.txt`);
    const visited = new Set<string>();
    let http: number | undefined;
    for (let redirects = 0; url !== undefined; ) {
      const capture = this.data.captures.get(url);
      // Not captured (or a redirect to what was not): as a missing file.
      if (capture === undefined) return { kind: 'missing', http };
      http = capture.status;
      if (capture.damaged !== undefined) return { kind: 'unreachable', http, why: capture.damaged };
      if (capture.unavailable !== undefined) return { kind: 'unavailable', http, why: capture.unavailable };
      visited.add(url);
      const step = responseStep(capture.status, capture.location, url, visited, redirects);
      if (step.status === 'ok') return { kind: 'ok', body: this.body(capture.bodyAt, capture.bodyLength), http };
      if (step.status !== 'redirect') return { kind: step.status, http, why: step.reason };
      redirects++;
      url = captureKey(step.next);
    }
    return { kind: 'missing', http };
  }

  private body(at: number, length: number): Uint8Array {
    if (length === 0) return new Uint8Array(0);
    const held = this.data.held;
    if (held !== undefined && at >= held.at && at + length <= held.at + held.octets.length) return this.bodyOf(held.octets, at - held.at, length);
    if (this.fd === -1) {
      try {
        this.fd = openSync(this.data.spill!, 'r');
      } catch (e) {
        throw new BulkError(`cannot read the WARC index's bodies (${this.data.spill}): ${reason(e)}`);
      }
    }
    // Bodies asked in the spill's order (an audit's sites, by URL, mostly are) come from the window read ahead;
    // each is a copy of its own, as a caller may keep it past the next read (unless it reads views).
    if (at < this.windowAt || at + length > this.windowAt + this.windowHeld) {
      if (length > this.window.length) return this.readAt(Buffer.allocUnsafe(length), at, length);
      this.windowHeld = 0; // (until read whole: a failed read leaves no window)
      this.windowHeld = this.readAt(this.window, at, length).length;
      this.windowAt = at;
    }
    return this.bodyOf(this.window, at - this.windowAt, length);
  }

  /** octets[from, from + length): a view (views), else a copy of its own. */
  private bodyOf(octets: Uint8Array, from: number, length: number): Uint8Array {
    // (A plain view: a Buffer's subarray costs more to make.)
    if (this.views) return new Uint8Array(octets.buffer, octets.byteOffset + from, length);
    const body = Buffer.allocUnsafe(length);
    body.set(octets.subarray(from, from + length));
    robotsBodyWork.copied += length;
    return body;
  }

  /** The spill's octets from `at` into `into`: `least` of them at least, then as many as one read gives. */
  private readAt(into: Buffer, at: number, least: number): Buffer {
    let done = 0;
    do {
      const n = readSync(this.fd, into, done, into.length - done, at + done);
      if (n === 0) break;
      done += n;
      robotsBodyWork.read += n;
    } while (done < least);
    if (done < least) throw new BulkError(`the WARC index's bodies (${this.data.spill}) end early`);
    return into.subarray(0, done);
  }
}
