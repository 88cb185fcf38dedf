// A ranked list of domains (`rank,domain` lines, as Tranco publishes it: no
// header, an optional one accepted) and a site's rank in it: its host when the
// list names the host, else the nearest parent domain the list names (the
// registrable domain, for a list of registrable domains). Without the Public
// Suffix List (no dependency has it), "parent domain" is each suffix of the host
// on a dot, down to two labels: a host under a shared suffix the list ranks
// (`someone.github.io` when `github.io` is ranked) takes that suffix's rank.
// The top-k strata the published tables use: 1k, 10k, 100k, 1M, else unranked.
import { readFileSync } from 'node:fs';
import { BulkError, reason } from '../base/errors.js';

/** The strata, disjoint: `10k` is ranks 1,001 to 10,000 (the top 10k is `1k` and `10k`); `unranked`: not listed, or past 1M. */
export const STRATA = ['1k', '10k', '100k', '1M', 'unranked'] as const;
export type Stratum = (typeof STRATA)[number];
const BOUNDS: readonly [number, Stratum][] = [[1_000, '1k'], [10_000, '10k'], [100_000, '100k'], [1_000_000, '1M']];

export function stratumOf(rank: number | null): Stratum {
  if (rank !== null) for (const [bound, stratum] of BOUNDS) if (rank <= bound) return stratum;
  return 'unranked';
}

/** A line that is not `rank,domain`: its number and why (the first few are said). */
export interface BadLine {
  line: number;
  why: string;
}

export interface RankList {
  /** Domains listed (the lowest rank kept for a domain listed twice). */
  size: number;
  /** Lines that were not `rank,domain` (the header aside), counted, not fatal. */
  bad: number;
  firstBad: BadLine[];
  rankOf(site: string): number | null;
}

const FIRST_BAD = 5;
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

/** The host of a site as audit names it: `host`, or `scheme://host[:port]`; lower case, no trailing dot. */
export function hostOfSite(site: string): string {
  let host = site;
  const scheme = host.indexOf('://');
  if (scheme >= 0) host = host.slice(scheme + 3);
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const port = host.lastIndexOf(':');
  if (port >= 0) host = host.slice(0, port);
  return host.toLowerCase().replace(/\.$/, '');
}

/** Reads a rank list; a file that cannot be read is a BulkError (one line). */
export function readRanks(path: string): RankList {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new BulkError(`cannot read the ranks ${path}: ${reason(e)}`);
  }
  return parseRanks(text);
}

export function parseRanks(text: string): RankList {
  const ranks = new Map<string, number>();
  let bad = 0;
  const firstBad: BadLine[] = [];
  const refuse = (line: number, why: string) => {
    bad++;
    if (firstBad.length < FIRST_BAD) firstBad.push({ line, why });
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '').trim();
    if (line === '') continue;
    const comma = line.indexOf(',');
    if (comma < 0) {
      refuse(i + 1, 'no comma (rank,domain)');
      continue;
    }
    const rankText = line.slice(0, comma).trim();
    const domain = line.slice(comma + 1).trim().toLowerCase().replace(/\.$/, '');
    if (!/^\d{1,9}$/.test(rankText) || Number(rankText) === 0) {
      // (A header names its columns: the first line, not a number.)
      if (i === 0 && !/^\d/.test(rankText)) continue;
      refuse(i + 1, `"${rankText.slice(0, 40)}" is not a rank (1, 2, ...)`);
      continue;
    }
    if (domain === '' || /[\s,/]/.test(domain)) {
      refuse(i + 1, `"${domain.slice(0, 80)}" is not a domain`);
      continue;
    }
    const rank = Number(rankText);
    const known = ranks.get(domain);
    if (known === undefined || rank < known) ranks.set(domain, rank);
  }
  return {
    size: ranks.size,
    bad,
    firstBad,
    rankOf(site: string): number | null {
      const host = hostOfSite(site);
      const own = ranks.get(host);
      if (own !== undefined) return own;
      if (host.startsWith('[') || IPV4.test(host)) return null;
      // The nearest parent domain listed, down to two labels (a TLD is not a site).
      let at = host.indexOf('.');
      while (at >= 0) {
        const parent = host.slice(at + 1);
        if (parent.indexOf('.') < 0) break;
        const r = ranks.get(parent);
        if (r !== undefined) return r;
        at = host.indexOf('.', at + 1);
      }
      return null;
    },
  };
}
