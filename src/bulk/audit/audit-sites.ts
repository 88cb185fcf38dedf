// The sites an audit walks, from classify's sources: each file of a
// --robots-dir (DIR/<host>, DIR/<scheme>/<host>[:port]), or each robots.txt URL
// the captures of --robots-warc, --robots-warc-list or --robots-index hold.
// Their robots.txt is read by those sources' own readers (RobotsDir, WarcRobots:
// redirects followed among the captures, HTTP outcomes as RobotsCache takes
// them), in a stable order (by name), a shard's hosts only with --shard.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RobotsDir } from '../sources/robots-dir.js';
import { WarcRobots, type HostRobots } from '../sources/warc/warc-robots.js';
import type { WarcIndexData } from '../sources/warc/warc-index.js';
import { isPlainRobotsUrl } from '../sources/warc/warc-capture-read.js';
import { captureShard } from '../index/robots-index-format.js';
import type { Shard } from '../hosts/shard.js';
import { BulkError, reason } from '../base/errors.js';

/** Where a site's robots.txt is found by its source's reader (scheme '' for a DIR/<host> file). */
export interface SiteOrigin {
  scheme: string;
  host: string;
  port: string;
}

/** A site as plain data (what crosses to a worker thread, which reads its robots.txt with a reader of its own). */
export interface SiteName {
  /** As the output names it: scheme://host[:port], or the host alone for a DIR/<host> file. */
  site: string;
  /** Its root, for usage() (https:// for a DIR/<host> file). */
  url: string;
  origin: SiteOrigin;
}

export interface AuditSite extends SiteName {
  /** Its robots.txt; a body read from captures is valid until the next site's robots() (the audit is done with it by then). */
  robots(): HostRobots;
}

/** A source's reader of robots.txt files, by origin. */
export type RobotsReader = (origin: SiteOrigin) => HostRobots;

/** The reader of a --robots-dir. */
export function dirReader(dir: string, maxOctets: number): RobotsReader {
  const reader = new RobotsDir(dir, maxOctets);
  return (origin) => fromDir(reader.read(origin));
}

/** The reader of captures (an index's, or shared with a thread: shared-captures.ts). */
export function captureReader(data: WarcIndexData): RobotsReader {
  const reader = new WarcRobots(data);
  return (origin) => reader.resolve(origin);
}

const SCHEME = /^[a-z][a-z0-9+.-]*$/;

/** Whether the site's host falls in the shard (the hash classify --shard and robots index use). */
function inShard(robotsUrl: string, shard: Shard | undefined): boolean {
  return shard === undefined || captureShard(robotsUrl, shard.count) === shard.index;
}

/** The sites of a --robots-dir: its files by name, then DIR/<scheme>/ folders' files. */
export function dirSites(dir: string, maxOctets: number, shard?: Shard): AuditSite[] {
  const read = dirReader(dir, maxOctets);
  const sites: AuditSite[] = [];
  const entries = listDir(dir);
  for (const name of entries) {
    const path = join(dir, name);
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      // (gone, or a dangling link: RobotsDir says what it is when read)
    }
    if (isDir) {
      if (!SCHEME.test(name)) continue;
      for (const file of listDir(path)) {
        const m = /^(.*?)(?::(\d+))?$/.exec(file)!;
        const host = m[1];
        if (!RobotsDir.canName(host)) continue;
        const port = m[2] ?? '';
        const site = `${name}://${file}`;
        if (!inShard(`${site}/robots.txt`, shard)) continue;
        const origin = { scheme: name, host, port };
        sites.push({ site, url: `${site}/`, origin, robots: () => read(origin) });
      }
      continue;
    }
    if (!RobotsDir.canName(name) || !inShard(`http://${name}/robots.txt`, shard)) continue;
    const origin = { scheme: '', host: name, port: '' };
    sites.push({ site: name, url: `https://${name}/`, origin, robots: () => read(origin) });
  }
  return sites;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    throw new BulkError(`cannot read robots directory ${dir}: ${reason(e)}`);
  }
}

function fromDir(found: ReturnType<RobotsDir['read']>): HostRobots {
  if (found.kind === 'file') return { kind: 'ok', body: found.body, http: 200 };
  if (found.kind === 'none') return { kind: 'missing' };
  return { kind: 'unreachable', why: `${found.file}: ${found.why}` };
}

/** URLs parsed to list the sites of captures (a test holds the plain ones to none: a count, not a clock). */
export const siteUrlParses = { count: 0 };

const ROBOTS_PATH = '/robots.txt';

/** The sites of captures: each captured URL whose path is /robots.txt (no query), by URL. */
export function captureSites(data: WarcIndexData, shard?: Shard): AuditSite[] {
  // (Bodies as views of the reader's window: each site is audited before the next is read.)
  const reader = new WarcRobots(data, true);
  const sites: AuditSite[] = [];
  for (const key of [...data.captures.keys()].sort()) {
    if (!key.endsWith(ROBOTS_PATH)) continue;
    let scheme: string;
    let site: string;
    let origin: SiteOrigin;
    // The key is the URL the reader would make of the origin, when it reads as its own (no user info): not parsed again.
    let known: string | undefined;
    if (isPlainRobotsUrl(key)) {
      // (new URL()'s own form: http or https, a host of plain labels, no port: its parts where they stand.)
      if (!inShard(key, shard)) continue;
      scheme = key.charCodeAt(4) === 0x73 ? 'https' : 'http';
      site = key.slice(0, key.length - ROBOTS_PATH.length);
      origin = { scheme, host: site.slice(scheme.length + 3), port: '' };
      known = key; // (the site is the key less its path)
    } else {
      siteUrlParses.count++;
      let u: URL;
      try {
        u = new URL(key);
      } catch {
        continue;
      }
      if (u.pathname !== ROBOTS_PATH || u.search !== '' || !inShard(key, shard)) continue;
      scheme = u.protocol.slice(0, -1);
      site = `${scheme}://${u.host}`;
      origin = { scheme, host: u.hostname, port: u.port };
      known = key === `${site}${ROBOTS_PATH}` ? key : undefined;
    }
    sites.push({ site, url: `${site}/`, origin, robots: () => reader.resolve(origin, known) });
  }
  return sites;
}
