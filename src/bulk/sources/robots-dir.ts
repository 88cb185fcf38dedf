// The robots.txt of an origin in a --robots-dir: DIR/<scheme>/<host>[:port]
// first (the port when it is not the scheme's default), then DIR/<host>. No
// file means no robots.txt; a file that cannot be read (a directory, a FIFO, a
// device, no permission, a loop of links) is said, with why.
//
// Looking up is most of what the directory costs per host. A DIR/<scheme>
// folder that is not there is known after one look. A file is opened first
// (then asked what it is: one path lookup, not two) while most hosts have
// one, and looked for with a stat that does not throw while many do not (a
// thrown ENOENT costs several times a stat that finds nothing).
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Origin } from '../hosts/origin.js';
import { reason } from '../base/errors.js';

/** A host name that can be a file name in the directory (no '/', not '.' or '..'). */
const FILE_NAME = /^[a-z0-9._~!$&'()*+,;=%:[\]-]+$/;
/** A scheme that can be a folder name (RFC 3986 3.1, lower-cased). */
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ftp: '21', ws: '80', wss: '443' };

/** What join(dir, name) puts before a name that has no '/' and is not '.' or '..' (a path.join per host cost
 * a sixth of the memory a host's lookup allocates, and its time). */
function prefixOf(dir: string): string {
  return join(dir, '_').slice(0, -1);
}

/** What the directory holds for an origin: its robots.txt's octets, none, or a file that cannot be read (and why). */
export type DirRobots = { kind: 'file'; body: Uint8Array } | { kind: 'none' } | { kind: 'unreadable'; file: string; why: string };

/** Octets of the buffer a RobotsDir keeps for the files it reads. */
const KEPT_BUFFER = 1 << 20;
const NONE: DirRobots = { kind: 'none' };
/** Lookups after which the directory chooses again how to look (openFirst), by the share of them that missed. */
const LOOK_WINDOW = 1024;
/** Open first while fewer than one lookup in MISS_SHARE misses: open, fstat, read and close cost ~5 µs less than a
 * stat before them on a host that has a file (a path lookup less), and a miss ~6 µs more (a thrown ENOENT against
 * a stat that finds nothing), docs/benchmarks.md "A host's file: open first". */
const MISS_SHARE = 4;

export class RobotsDir {
  /** DIR/<scheme>/ as the start of a file's path when that is a folder (null when not), looked at once per scheme. */
  private readonly schemeFolders = new Map<string, string | null>();
  /** DIR/ as the start of a file's path: a host (canName: no '/', not '.' or '..') is appended, as join() would. */
  private readonly prefix: string;
  /** Read buffer, reused host after host (compileOctets reads it during the call, parse() copies it); a bigger file gets one of its own. */
  private readonly buffer = new Uint8Array(KEPT_BUFFER);
  /** How files are looked up now: opened first, or a stat first (at the start, and while misses are common). */
  private openFirst = false;
  /** Lookups in this window, and the misses among them. */
  private looks = 0;
  private misses = 0;

  /** Reads at most maxOctets + 1 octets of a file: parse() reads no further, and the one past says the file is longer. */
  constructor(private readonly dir: string, private readonly maxOctets: number) {
    this.prefix = prefixOf(dir);
  }

  /** Whether an origin's host can name a file at all (else it has no robots.txt, and nothing is looked up). */
  static canName(host: string): boolean {
    return FILE_NAME.test(host) && host !== '.' && host !== '..';
  }

  /** The origin's robots.txt (its host lower-case, without a trailing dot, one that canName). The
   * octets are valid until the next call. */
  read(origin: Origin): DirRobots {
    const { host, scheme } = origin;
    const port = origin.port === '' || DEFAULT_PORTS[scheme] === origin.port ? '' : `:${origin.port}`;
    const folder = SCHEME.test(scheme) ? this.schemeFolder(scheme) : null;
    if (folder !== null) {
      const found = this.readIfThere(folder + host + port);
      if (found !== NONE) return found;
    }
    return this.readIfThere(this.prefix + host);
  }

  private schemeFolder(scheme: string): string | null {
    let folder = this.schemeFolders.get(scheme);
    if (folder === undefined) {
      const path = join(this.dir, scheme);
      let is = false;
      try {
        is = statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
      } catch {
        // (not a folder one can look in: as if absent, as a failed open of a file in it was)
      }
      folder = is ? prefixOf(path) : null;
      this.schemeFolders.set(scheme, folder);
    }
    return folder;
  }

  /** @internal How files are looked up now (for the tests): opened first, or a stat first. */
  get lookup(): 'open' | 'stat' {
    return this.openFirst ? 'open' : 'stat';
  }

  /** The file's octets; NONE when there is no such file. */
  private readIfThere(file: string): DirRobots {
    const found = this.openFirst ? this.openThenLook(file) : this.lookThenOpen(file);
    this.looks++;
    if (found === NONE) this.misses++;
    if (this.looks === LOOK_WINDOW) {
      this.openFirst = this.misses * MISS_SHARE < LOOK_WINDOW;
      this.looks = 0;
      this.misses = 0;
    }
    return found;
  }

  /** A stat first (a miss costs no exception), then the file opened and read. */
  private lookThenOpen(file: string): DirRobots {
    try {
      const stat = statSync(file, { throwIfNoEntry: false });
      if (stat === undefined) return NONE;
      const odd = oddFile(stat, file);
      if (odd !== undefined) return odd;
      const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        // Read no further than the size the stat gave: were the file replaced since by a FIFO or a
        // device, the read fails (opened without waiting) or ends there.
        return { kind: 'file', body: this.readRegular(fd, stat.size) };
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      return failed(e, file);
    }
  }

  /** The file opened first (without waiting: a FIFO's open would), then what it is asked of the open file: one path
   * lookup, not two; a miss is a thrown ENOENT. A FIFO or a device is opened, not read. */
  private openThenLook(file: string): DirRobots {
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (e) {
      return failed(e, file);
    }
    try {
      const stat = fstatSync(fd);
      return oddFile(stat, file) ?? { kind: 'file', body: this.readRegular(fd, stat.size) };
    } catch (e) {
      return failed(e, file);
    } finally {
      closeSync(fd);
    }
  }

  /** The first `size` octets of the open regular file of that size (at most maxOctets + 1 of them). */
  private readRegular(fd: number, size: number): Uint8Array {
    const want = Math.min(size, this.maxOctets + 1);
    const buffer = want <= this.buffer.length ? this.buffer : new Uint8Array(want);
    let length = 0;
    while (length < want) {
      const got = readSync(fd, buffer, length, want - length, length);
      if (got === 0) break;
      length += got;
    }
    return buffer.subarray(0, length);
  }
}

/** A directory, a FIFO or a device where a host's file should be: unreadable, and why (undefined: a regular file). */
function oddFile(stat: Stats, file: string): DirRobots | undefined {
  if (stat.isDirectory()) return { kind: 'unreadable', file, why: 'is a directory' };
  // A FIFO would hold the run for ever, a device (/dev/zero) never end.
  if (!stat.isFile()) return { kind: 'unreadable', file, why: 'not a regular file' };
  return undefined;
}

/** What a failed look, open or read of a host's file means: none (no such file, or a path through a file), or unreadable. */
function failed(e: unknown, file: string): DirRobots {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return NONE;
  return { kind: 'unreadable', file, why: reason(e) };
}
