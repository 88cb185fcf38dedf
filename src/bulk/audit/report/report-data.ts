// The counts behind `robots audit report`, from audit's per-site JSON lines:
// per crawl (the lines' `crawl` label, when they carry one), sites by
// robots.txt status; per crawler, sites by category; per rank stratum (the
// lines' `rank`, when they carry one), the same; per operator and purpose, the
// category of its crawler and the answer at `/`; and sites with Content-Signal,
// License and LLM-Policy lines. Plain counts, one pass, bounded memory: the
// report never holds the sites themselves.
import { PURPOSES, type Purpose } from '../../../index.js';

/** A category as the report counts it: `unknown` is a site with no robots.txt known (missing). */
export type ReportCategory = 'all' | 'part' | 'none' | 'unknown';
export const REPORT_CATEGORIES: readonly ReportCategory[] = ['all', 'part', 'none', 'unknown'];
export type CategoryCounts = Record<ReportCategory, number>;

export type SiteStatus = 'ok' | 'unavailable' | 'unreachable' | 'missing';
export const SITE_STATUSES: readonly SiteStatus[] = ['ok', 'unavailable', 'unreachable', 'missing'];

export type Answer = 'yes' | 'no' | 'unknown';
export const ANSWERS: readonly Answer[] = ['yes', 'no', 'unknown'];

/** A category as audit writes it, in either of its labels (--labels audit or commoncrawl). */
const CATEGORY_WORDS: Record<string, ReportCategory> = {
  all: 'all', part: 'part', none: 'none',
  'disallow-all': 'all', 'allow-part': 'part', 'allow-all': 'none',
};

/**
 * Top-k strata of a ranked list, as published tables count them: a site of
 * rank 500 is in the top 1k and in every larger top-k. Ranks past the last
 * fall in `beyond 1M`; sites the list does not hold (`rank: null`), in `unranked`.
 */
export const STRATA: readonly { name: string; maxRank: number }[] = [
  { name: 'top 1k', maxRank: 1_000 },
  { name: 'top 10k', maxRank: 10_000 },
  { name: 'top 100k', maxRank: 100_000 },
  { name: 'top 1M', maxRank: 1_000_000 },
];
export const BEYOND = 'beyond 1M';
export const UNRANKED = 'unranked';
export const STRATUM_NAMES: readonly string[] = [...STRATA.map((s) => s.name), BEYOND, UNRANKED];

/** Names the report keeps apart; a line naming more is a bad line (a hostile input could name millions, each a row). */
export const MAX_CRAWLERS = 256;
export const MAX_OPERATORS = 64;
export const MAX_CRAWLS = 256;
/** Longer crawler, operator or crawl names than this make a bad line: each name is written many times over on the page. */
export const MAX_NAME_CHARS = 256;

export interface OperatorCounts extends CategoryCounts {
  answers: Record<Answer, number>;
}

/** One crawl's counts (the whole input's when the lines carry no crawl). */
export interface CrawlCounts {
  sites: number;
  status: Record<SiteStatus, number>;
  /** crawler → sites by category. */
  crawlers: Map<string, CategoryCounts>;
  /** crawler → categories left inexact by the walk's bound (audit's `"exact": false`). */
  inexact: Map<string, number>;
  /** stratum → sites in it. */
  strataSites: Map<string, number>;
  /** crawler → stratum → sites by category. */
  strata: Map<string, Map<string, CategoryCounts>>;
  /** operator → purpose → sites by category of its crawler for it, and by answer. */
  operators: Map<string, Map<Purpose, OperatorCounts>>;
  withContentSignal: number;
  withLicense: number;
  withLlmPolicy: number;
}

export function emptyCounts(): CategoryCounts {
  return { all: 0, part: 0, none: 0, unknown: 0 };
}

function emptyCrawl(): CrawlCounts {
  return {
    sites: 0,
    status: { ok: 0, unavailable: 0, unreachable: 0, missing: 0 },
    crawlers: new Map(),
    inexact: new Map(),
    strataSites: new Map(),
    strata: new Map(),
    operators: new Map(),
    withContentSignal: 0,
    withLicense: 0,
    withLlmPolicy: 0,
  };
}

/** The strata a rank falls in (null: unranked). */
export function strataOf(rank: number | null): string[] {
  if (rank === null) return [UNRANKED];
  const inside = STRATA.filter((s) => rank <= s.maxRank).map((s) => s.name);
  return inside.length > 0 ? inside : [BEYOND];
}

/** A site line, checked: what the report reads of it. */
interface SiteLine {
  crawl: string | undefined;
  rank: number | null | undefined;
  status: SiteStatus;
  crawlers: { crawler: string; category: ReportCategory; exact: boolean }[];
  operators: { operator: string; purposes: Record<Purpose, { category: ReportCategory; answer: Answer }> }[] | undefined;
  contentSignal: boolean;
  license: boolean;
  llmPolicy: boolean;
}

class BadLine extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function categoryOf(v: unknown, what: string): ReportCategory {
  if (v === null) return 'unknown';
  if (typeof v === 'string' && Object.hasOwn(CATEGORY_WORDS, v)) return CATEGORY_WORDS[v];
  throw new BadLine(`${what}: category ${JSON.stringify(v)?.slice(0, 40)} is none of all, part, none (or disallow-all, allow-part, allow-all), null`);
}

function nameOf(name: string, what: string): string {
  if (name.length > MAX_NAME_CHARS) throw new BadLine(`${what} longer than ${MAX_NAME_CHARS} characters`);
  return name;
}

function linesOf(v: unknown, key: string): boolean {
  if (v === undefined) return false;
  if (!Array.isArray(v)) throw new BadLine(`"${key}" is not a list`);
  return v.length > 0;
}

/** Reads a line as audit's JSON lines write a site (--format jsonl, with --ranks' `rank` and --crawl's `crawl`). */
function readSite(text: string): SiteLine {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new BadLine(text.startsWith('site\t') ? 'a TSV header: the report reads audit\'s JSON lines (--format jsonl)' : 'not JSON');
  }
  if (!isObject(v)) throw new BadLine('not a JSON object');
  if (typeof v.site !== 'string') throw new BadLine('no "site"');
  if (typeof v.status !== 'string' || !(SITE_STATUSES as readonly string[]).includes(v.status)) throw new BadLine(`"status" is none of ${SITE_STATUSES.join(', ')}`);
  if (v.crawl !== undefined && typeof v.crawl !== 'string') throw new BadLine('"crawl" is not a string');
  if (typeof v.crawl === 'string') nameOf(v.crawl, 'a crawl label');
  if (v.rank !== undefined && v.rank !== null && !(typeof v.rank === 'number' && Number.isInteger(v.rank) && v.rank >= 1)) throw new BadLine('"rank" is neither a rank (1, 2, ...) nor null');
  if (!Array.isArray(v.crawlers)) throw new BadLine('"crawlers" is not a list');
  const crawlers = v.crawlers.map((c: unknown) => {
    if (!isObject(c) || typeof c.crawler !== 'string') throw new BadLine('a crawler without its name');
    return { crawler: nameOf(c.crawler, 'a crawler\'s name'), category: categoryOf(c.category, c.crawler), exact: c.exact !== false };
  });
  let operators: SiteLine['operators'];
  if (v.operators !== undefined) {
    if (!Array.isArray(v.operators)) throw new BadLine('"operators" is not a list');
    operators = v.operators.map((o: unknown) => {
      if (!isObject(o) || typeof o.operator !== 'string' || !isObject(o.purposes)) throw new BadLine('an operator without its name or purposes');
      const purposes = {} as Record<Purpose, { category: ReportCategory; answer: Answer }>;
      for (const p of PURPOSES) {
        const r = o.purposes[p];
        if (!isObject(r)) throw new BadLine(`${o.operator}: no purpose ${p}`);
        const answer = r.answer;
        if (answer !== 'yes' && answer !== 'no' && answer !== 'unknown') throw new BadLine(`${o.operator} ${p}: answer is none of yes, no, unknown`);
        purposes[p] = { category: categoryOf(r.category, `${o.operator} ${p}`), answer };
      }
      return { operator: nameOf(o.operator, 'an operator\'s id'), purposes };
    });
  }
  return {
    crawl: v.crawl as string | undefined,
    rank: v.rank as number | null | undefined,
    status: v.status as SiteStatus,
    crawlers,
    operators,
    contentSignal: linesOf(v.contentSignals, 'contentSignals'),
    license: linesOf(v.licenses, 'licenses'),
    llmPolicy: linesOf(v.llmPolicies, 'llmPolicies'),
  };
}

/** Where a bad line is, and why: the first few are kept to be shown. */
export interface BadLineNote {
  where: string;
  why: string;
}
const BAD_LINES_KEPT = 5;

export class ReportData {
  /** Crawl label → its counts; the key '' holds the lines without a label. */
  readonly crawls = new Map<string, CrawlCounts>();
  /** Some line carried `rank` (the report has strata). */
  hasRank = false;
  /** Some line carried `crawl` (the report has a trend over crawls). */
  hasCrawl = false;
  hasOperators = false;
  /** In the order first met. */
  readonly crawlerNames: string[] = [];
  readonly operatorNames: string[] = [];
  badLines = 0;
  readonly badNotes: BadLineNote[] = [];
  private readonly crawlerSet = new Set<string>();
  private readonly operatorSet = new Set<string>();

  /** Counts one input line in (blank lines are skipped; a bad one is counted and noted, `where` naming it). */
  add(text: string | null, where: string): void {
    if (text !== null && text.trim() === '') return;
    try {
      if (text === null) throw new BadLine('longer than a site line can be');
      this.count(readSite(text));
    } catch (e) {
      if (!(e instanceof BadLine)) throw e;
      this.badLines++;
      if (this.badNotes.length < BAD_LINES_KEPT) this.badNotes.push({ where, why: e.message });
    }
  }

  /** The labels of the crawls, sorted ('' first: the lines without one). */
  crawlLabels(): string[] {
    return [...this.crawls.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The crawl the charts of one crawl show: the last label in sorted order (the latest, for labels such as 2025-38). */
  latest(): { label: string; counts: CrawlCounts } | undefined {
    const labels = this.crawlLabels();
    if (labels.length === 0) return undefined;
    const label = labels[labels.length - 1];
    return { label, counts: this.crawls.get(label)! };
  }

  sites(): number {
    let n = 0;
    for (const c of this.crawls.values()) n += c.sites;
    return n;
  }

  private count(s: SiteLine): void {
    // Checked whole before anything is counted: a bad line counts nowhere.
    const label = s.crawl ?? '';
    if (!this.crawls.has(label) && this.crawls.size >= MAX_CRAWLS) throw new BadLine(`more than ${MAX_CRAWLS} crawl labels`);
    const newCrawlers = new Set(s.crawlers.map((c) => c.crawler).filter((c) => !this.crawlerSet.has(c)));
    if (this.crawlerSet.size + newCrawlers.size > MAX_CRAWLERS) throw new BadLine(`more than ${MAX_CRAWLERS} crawler names`);
    const newOperators = new Set((s.operators ?? []).map((o) => o.operator).filter((o) => !this.operatorSet.has(o)));
    if (this.operatorSet.size + newOperators.size > MAX_OPERATORS) throw new BadLine(`more than ${MAX_OPERATORS} operators`);
    for (const c of newCrawlers) {
      this.crawlerSet.add(c);
      this.crawlerNames.push(c);
    }
    for (const o of newOperators) {
      this.operatorSet.add(o);
      this.operatorNames.push(o);
    }
    if (s.crawl !== undefined) this.hasCrawl = true;
    if (s.rank !== undefined) this.hasRank = true;
    if (s.operators !== undefined) this.hasOperators = true;

    let crawl = this.crawls.get(label);
    if (crawl === undefined) this.crawls.set(label, (crawl = emptyCrawl()));
    crawl.sites++;
    crawl.status[s.status]++;
    const strata = s.rank === undefined ? [] : strataOf(s.rank);
    for (const stratum of strata) crawl.strataSites.set(stratum, (crawl.strataSites.get(stratum) ?? 0) + 1);
    for (const c of s.crawlers) {
      const counts = getOr(crawl.crawlers, c.crawler, emptyCounts);
      counts[c.category]++;
      if (!c.exact) crawl.inexact.set(c.crawler, (crawl.inexact.get(c.crawler) ?? 0) + 1);
      if (strata.length > 0) {
        const byStratum = getOr(crawl.strata, c.crawler, () => new Map<string, CategoryCounts>());
        for (const stratum of strata) getOr(byStratum, stratum, emptyCounts)[c.category]++;
      }
    }
    for (const o of s.operators ?? []) {
      const byPurpose = getOr(crawl.operators, o.operator, () => new Map<Purpose, OperatorCounts>());
      for (const p of PURPOSES) {
        const n = getOr(byPurpose, p, () => ({ ...emptyCounts(), answers: { yes: 0, no: 0, unknown: 0 } }));
        n[o.purposes[p].category]++;
        n.answers[o.purposes[p].answer]++;
      }
    }
    if (s.contentSignal) crawl.withContentSignal++;
    if (s.license) crawl.withLicense++;
    if (s.llmPolicy) crawl.withLlmPolicy++;
  }
}

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
