// One site's record for `robots audit`: per crawler its category (rule-category.ts),
// whether a group names it or only `*` reaches it, its purposes at `/` and whether
// a Content-Usage path rule changes them somewhere; per operator the category of
// its crawler for each purpose; the file's Content-Signal, License and
// LLM-Policy lines; and what the robots.txt was (its status).
//
// Crawlers that the same groups apply to share one category: it is computed
// once per distinct set of groups of a file, never per crawler. The file is
// parsed once (what the audit reads of it: audit-records.ts); the purposes and operators' answers at `/` are
// the engine's usage() and operatorUsage() over the rules' verdicts at `/`
// (site-rules.ts): no rules are compiled.
import { type Profile, PURPOSES, type Purpose, type Preference, type UsageAnswer } from '../../index.js';
import { agentTokens } from '../../engine/parse/agents.js';
import { OPERATORS, type Operator } from '../../data/operators.js';
import { controlTokensFor, type ControlTokenUse } from '../../engine/usage/control-tokens.js';
import { operatorAnswerOf } from '../../engine/usage/operator-usage.js';
import type { Category, CategoryAnswer } from './rule-category.js';
import { SiteRules } from './site-rules.js';
import { readAuditRecords, type AuditRecords } from './audit-records.js';
import { TokenArena } from './path-verdict.js';
import type { HostRobots } from '../sources/warc/warc-robots.js';

/** What the site's robots.txt was: its rules (ok), 4xx (all allowed), 5xx or unreachable (all disallowed), or none known. */
export type RobotsStatus = 'ok' | 'unavailable' | 'unreachable' | 'missing';

/**
 * How HTTP outcomes count. rfc: RFC 9309 2.3.1 (4xx: no rules, all allowed;
 * 5xx, 429, unreachable: all disallowed). commoncrawl: as Common Crawl's
 * crawler counts them, a 403 (and any status it defers on) disallows all: a
 * departure from RFC 9309, where a 403 is a 4xx like any other.
 */
export type StatusConvention = 'rfc' | 'commoncrawl';
export const STATUS_CONVENTIONS: readonly StatusConvention[] = ['rfc', 'commoncrawl'];

/** How the crawler is reached: a group naming it, only a `*` group, or no group at all. */
export type Named = 'own' | 'star' | 'none';

export interface CrawlerRecord {
  crawler: string;
  /** null: no robots.txt known (missing). */
  category: Category | null;
  /** False only for a hostile file whose walk met its bound (rule-category.ts). */
  exact: boolean;
  /** null unless the rules were read (status ok). */
  named: Named | null;
  /** usage('<site>/', crawler).purposes, with the control tokens as the library counts them. */
  purposes: Record<Purpose, Preference>;
  /** A Content-Usage rule with a path pattern applies to the crawler: the purposes may differ below `/`. */
  purposesVary: boolean;
  /** A path the crawler may fetch and one it may not, when the rules were read and there is one: the proof of the
   * category (`part` has both, `none` an allowed one, `all` a disallowed one), as a URL would carry it (octets
   * outside printable ASCII as %XX). JSON lines only. */
  allowedPath?: string;
  disallowedPath?: string;
}

export interface OperatorPurposeRecord {
  /** The crawler that fetches for the purpose (null: the operator lists none). */
  crawler: string | null;
  category: Category | null;
  /** operatorUsage()'s answer at `/`. */
  answer: UsageAnswer;
}

export interface OperatorRecord {
  operator: string;
  purposes: Record<Purpose, OperatorPurposeRecord>;
}

export interface SiteRecord {
  site: string;
  status: RobotsStatus;
  /** The HTTP status of the capture that decided (none for a file of a directory). */
  http?: number;
  crawlers: CrawlerRecord[];
  operators?: OperatorRecord[];
  contentSignals: string[];
  licenses: string[];
  llmPolicies: string[];
}

export interface AuditSettings {
  crawlers: readonly string[];
  profile: Profile;
  maxOctets: number;
  operators?: readonly Operator[];
  convention: StatusConvention;
}

const UNKNOWN_PURPOSES: Record<Purpose, Preference> = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };

/** The status under the convention, from what a source found. */
export function statusOf(found: HostRobots, convention: StatusConvention): RobotsStatus {
  if (convention === 'commoncrawl' && found.http === 403) return 'unreachable';
  return found.kind;
}

export class SiteAuditor {
  /** Each crawler's product tokens (agentTokens keeps only the last agent's). */
  private readonly tokens = new Map<string, readonly string[]>();

  /** The control tokens that speak for each crawler, by the operators asked (the shipped ones: undefined). */
  private readonly uses = new Map<readonly Operator[] | undefined, Map<string, readonly ControlTokenUse[]>>();

  /** The crawlers' names (tokensOf's), in the settings' order: one list for every site (the core keeps them encoded
   * for the list it was given last). */
  private crawlerNames: (readonly string[])[] | undefined;

  /** The rules' tokens of the site audited (its room reused by the next: a site's rules do not outlive its record). */
  private readonly arena = new TokenArena();

  constructor(private readonly settings: AuditSettings) {}

  private controlUses = (crawler: string, operators: readonly Operator[] | undefined): readonly ControlTokenUse[] => {
    let byCrawler = this.uses.get(operators);
    if (byCrawler === undefined) this.uses.set(operators, (byCrawler = new Map()));
    let uses = byCrawler.get(crawler);
    if (uses === undefined) byCrawler.set(crawler, (uses = controlTokensFor(crawler, operators ?? OPERATORS)));
    return uses;
  };

  private tokensOf = (crawler: string): readonly string[] => {
    let t = this.tokens.get(crawler);
    if (t === undefined) this.tokens.set(crawler, (t = agentTokens(crawler, this.settings.profile)));
    return t;
  };

  /** The record of a site (`site` as the output names it; `url` its root, for usage()). */
  audit(site: string, url: string, found: HostRobots): SiteRecord {
    const s = this.settings;
    const status = statusOf(found, s.convention);
    const record: SiteRecord = { site, status, crawlers: [], contentSignals: [], licenses: [], llmPolicies: [] };
    if (found.http !== undefined) record.http = found.http;
    if (status !== 'ok' || found.kind !== 'ok') return this.withoutRules(record, status);
    const body = found.body.length > s.maxOctets ? found.body.subarray(0, s.maxOctets) : found.body;
    const records = readAuditRecords(body, s.profile);
    this.arena.start();
    const rules = new SiteRules(records, s.profile, url, this.tokensOf, this.controlUses, this.arena);
    try {
      rules.chooseEach(s.crawlers, (this.crawlerNames ??= s.crawlers.map(this.tokensOf)));
      // (Crawlers that share a set share its answer: its proof paths written once.)
      let proofOf: CategoryAnswer | undefined;
      let proof: ProofPaths = {};
      for (const crawler of s.crawlers) {
        const set = rules.of(crawler);
        const answer = set.category();
        if (answer !== proofOf) {
          proofOf = answer;
          proof = proofPaths(answer);
        }
        const p = rules.purposesAtRoot(crawler);
        // (Fields set one by one, the proof's last when there: a spread of objects of varying shape is V8's slow path.)
        const entry: CrawlerRecord = {
          crawler,
          category: answer.category,
          exact: answer.exact,
          named: rules.reach(crawler),
          purposes: { search: p.search, 'train-ai': p['train-ai'], 'ai-use': p['ai-use'] },
          purposesVary: set.usage().paths !== null,
        };
        if (proof.allowedPath !== undefined) entry.allowedPath = proof.allowedPath;
        if (proof.disallowedPath !== undefined) entry.disallowedPath = proof.disallowedPath;
        record.crawlers.push(entry);
      }
      if (s.operators !== undefined) {
        record.operators = s.operators.map((op) => {
          const answer = operatorAnswerOf(rules, url, op);
          const purposes = {} as Record<Purpose, OperatorPurposeRecord>;
          for (const p of PURPOSES) {
            const crawler = answer.purposes[p].fetch?.crawler ?? null;
            purposes[p] = { crawler, category: crawler === null ? null : rules.of(crawler).category().category, answer: answer.purposes[p].answer };
          }
          return { operator: op.id, purposes };
        });
      }
      record.contentSignals = contentSignals(records);
      record.licenses = records.licenses.map((l) => l.value);
      record.llmPolicies = records.llmPolicies.map((l) => l.value);
    } finally {
      rules.dispose();
    }
    return record;
  }

/** No rules: every crawler decided by the status alone (4xx: none disallowed; unreachable: all; missing: not known). */
  private withoutRules(record: SiteRecord, status: RobotsStatus): SiteRecord {
    const category: Category | null = status === 'unavailable' ? 'none' : status === 'unreachable' ? 'all' : null;
    record.crawlers = this.settings.crawlers.map((crawler) => ({ crawler, category, exact: true, named: null, purposes: { ...UNKNOWN_PURPOSES }, purposesVary: false }));
    if (this.settings.operators !== undefined) {
      record.operators = this.settings.operators.map((op) => {
        const purposes = {} as Record<Purpose, OperatorPurposeRecord>;
        for (const p of PURPOSES) {
          const crawler = op.crawlers.find((c) => c.purposes.includes(p))?.token ?? null;
          // Fetching disallowed: the answer is no; allowed with no robots.txt to say anything of the use: unknown.
          purposes[p] = { crawler, category: crawler === null ? null : category, answer: crawler !== null && category === 'all' ? 'no' : 'unknown' };
        }
        return { operator: op.id, purposes };
      });
    }
    return record;
  }
}

type ProofPaths = { allowedPath?: string; disallowedPath?: string };

/** The category's proof paths, written (CrawlerRecord.allowedPath). */
function proofPaths(answer: CategoryAnswer): ProofPaths {
  const paths: ProofPaths = {};
  if (answer.allowedPath !== undefined) paths.allowedPath = pathText(answer.allowedPath);
  if (answer.disallowedPath !== undefined) paths.disallowedPath = pathText(answer.disallowedPath);
  return paths;
}

/** A path's octets as text: printable ASCII as it is, any other octet as %XX. */
function pathText(octets: Uint8Array): string {
  let s = '';
  for (const c of octets) s += c > 0x20 && c < 0x7f ? String.fromCharCode(c) : `%${c < 16 ? '0' : ''}${c.toString(16).toUpperCase()}`;
  return s;
}

/** The values of the file's Content-Signal lines (in its groups), in file order. */
function contentSignals(records: AuditRecords): string[] {
  // (Most files have no such line: no map made for them.)
  if (!records.groups.some((g) => g.usage.length > 0)) return [];
  const lines = new Map<number, string>();
  for (const g of records.groups) for (const u of g.usage) if (u.field === 'content-signal') lines.set(u.line, u.value);
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
}
