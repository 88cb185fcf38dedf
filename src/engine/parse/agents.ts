// Which groups apply to an agent (docs/glossary.md: the product token(s) a caller
// passes for one crawler): its validation, and Google's group selection.
import type { Group, AgentLine, AgentValues } from './records.js';
import { core } from '../wasm/core.js';
import { AGENT_CHOICE_NAMED, AGENT_END, AGENT_FIELDS, AGENT_LINE, AGENT_OWNER, AGENT_START } from '../wasm/layout.js';
import { DEFAULT_PROFILE, isProfile, traitsOf, type Profile } from './profile.js';
import { encodedNames } from './rule-selection.js';
import { asciiLower } from '../../text/ascii.js';

const TOKEN = /^[A-Za-z_-]+$/;

/** Is `name` a product token (RFC 9309 2.2.1; Google's IsValidUserAgentToObey):
 * a non-empty run of [A-Za-z_-] and nothing else ("Googlebot", not "Googlebot/2.1"). */
export function isProductToken(name: unknown): name is string {
  return typeof name === 'string' && TOKEN.test(name);
}

/** @deprecated Use isProductToken (it tests one name, a product token, not an agent: docs/glossary.md). Kept until 0.2. */
export const isValidAgent: (agent: unknown) => agent is string = isProductToken;

/** @internal A crawler that no group names (only the `*` groups apply), in
 * either profile: for APIs whose callers may give no name (the compat entry). */
export const ANY_CRAWLER: readonly string[] = Object.freeze([]);

/**
 * The agent's product tokens, lower-cased, checked for the profile: what
 * user-agent lines are compared with. `rfc` requires product tokens
 * ([A-Za-z_-]+, RFC 9309 2.2.1) and throws a TypeError otherwise; `google`
 * takes any string, as Google's library does: one that is not a token simply
 * matches no group.
 */
export function agentTokens(agent: string | readonly string[], profile: Profile): readonly string[] {
  if (agent === ANY_CRAWLER) return ANY_CRAWLER;
  // A crawler compiles host after host with the same agent: its tokens are checked once.
  if (typeof agent === 'string' && agent === lastAgent && profile === lastProfile) return lastNames;
  const names = checkedNames(agent, profile);
  if (typeof agent === 'string') {
    lastAgent = agent;
    lastProfile = profile;
    lastNames = names;
  }
  return names;
}
let lastAgent: string | undefined;
let lastProfile: Profile | undefined;
let lastNames: readonly string[] = ANY_CRAWLER;

function checkedNames(agent: string | readonly string[], profile: Profile): readonly string[] {
  const list = typeof agent === 'string' ? [agent] : agent;
  if (!Array.isArray(list)) {
    throw new TypeError(`agent must be a string or an array of strings, got ${describe(agent)}`);
  }
  const tokensOnly = traitsOf(profile).requiresProductTokens;
  if (tokensOnly && list.length === 0) throw new TypeError('agent list is empty: name at least one product token');
  // (A loop, not list.map(): map's result is PACKED in the interpreter and HOLEY
  // once TurboFan inlines it, and the selection's loop over these names
  // (then in rule-selection.ts, now the core's) was thrown away at that change of map.
  // A hole is an agent that is not a string.)
  const names: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const a: unknown = list[i];
    if (typeof a !== 'string') throw new TypeError(`agent must be a string, got ${describe(a)}`);
    if (tokensOnly && !TOKEN.test(a)) throw new TypeError(invalidAgent(a));
    names.push(asciiLower(a));
  }
  return names;
}

/** Why a name is not a product token, and how to get one. */
function invalidAgent(a: string): string {
  const quoted = JSON.stringify(a.slice(0, 80));
  if (a.trim().startsWith('*')) {
    return `invalid agent ${quoted}: name your crawler by its product token (e.g. "FooBot"); the "*" groups apply when no group names it`;
  }
  const token = productToken(a);
  const hint = token === '' ? '' : `; productToken(${quoted}) gives "${token}"`;
  return `invalid agent ${quoted}: a product token is letters, '-' and '_' only (e.g. "Googlebot", not "Googlebot/2.1")${hint}`;
}

/**
 * The crawler's product token in a User-Agent header or any crawler name, the
 * name robots.txt groups are matched against (RFC 9309 2.2.1): the product
 * after "compatible;" when there is one ("Mozilla/5.0 (compatible;
 * Googlebot/2.1; +http://www.google.com/bot.html)" is "Googlebot"), else the
 * first product ("FooBot/1.2 (+https://foo.example/bot)" is "FooBot"): a
 * product ends at '/' (its version), whitespace, ';', ',', '(' or ')'. '' when
 * that product is not a product token ("Bot1", "MJ12bot/1.4"): a name is never
 * cut to a token, or "Bot1" and "Bot2" would be one crawler.
 */
export function productToken(userAgent: string): string {
  if (typeof userAgent !== 'string') throw new TypeError(`userAgent must be a string, got ${describe(userAgent)}`);
  const compatible = /compatible;\s*([^\s/;,()]+)/i.exec(userAgent);
  const product = compatible !== null ? compatible[1] : /^\s*([^\s/;,()]*)/.exec(userAgent)![1];
  return TOKEN.test(product) ? product : '';
}

/**
 * Why each of the agent's names does not name the groups it seems to (one
 * sentence a name; none when every one is a product token). Under `google` a
 * name that is not a product token is compared whole, as Google's parser does:
 * it names no group, and the `*` group applies. Under `rfc` such a name is
 * refused (parse().isAllowed & co. throw a TypeError). For `robots check` and
 * `robots explain` (a note on stderr) and the tester page.
 */
export function agentNotes(agent: string | readonly string[], profile: Profile = DEFAULT_PROFILE): string[] {
  if (!isProfile(profile)) throw new TypeError(`profile must be 'rfc' or 'google', got ${JSON.stringify(profile)}`);
  const list = typeof agent === 'string' ? [agent] : agent;
  if (!Array.isArray(list)) throw new TypeError(`agent must be a string or an array of strings, got ${describe(agent)}`);
  const notes: string[] = [];
  for (const a of list) {
    if (typeof a !== 'string') throw new TypeError(`agent must be a string, got ${describe(a)}`);
    if (TOKEN.test(a)) continue;
    const quoted = JSON.stringify(a.slice(0, 80));
    if (traitsOf(profile).requiresProductTokens) {
      notes.push(`${quoted} is not a product token (letters, '-' and '_'): the rfc profile refuses it.`);
      continue;
    }
    if (a === '') {
      notes.push(`The empty name is not a product token: Google's parser compares it whole, so it names the user-agent lines whose value starts with none of the letters, '-' and '_' (such as "User-agent: 360Spider"), else the "User-agent: *" group applies.`);
      continue;
    }
    if (a.trimStart().startsWith('*')) {
      notes.push(`${quoted} is not a crawler's name: it names no group, so the "User-agent: *" group applies, as to any crawler no group names.`);
      continue;
    }
    // What a user-agent line of that name is read as (Google's ExtractUserAgent), and the token a caller may mean.
    const read = /^[A-Za-z_-]*/.exec(a)![0];
    const token = productToken(a);
    const line = read === '' ? `a line "User-agent: ${a.slice(0, 80)}" is read as the empty name` : `a line "User-agent: ${a.slice(0, 80)}" is read as "${read}"`;
    const hint = token !== '' && token !== a ? `; its product token is "${token}"` : '';
    notes.push(`${quoted} is not a product token (letters, '-' and '_'): Google's parser compares it whole, so no group names it (${line}) and the "User-agent: *" group applies${hint}.`);
  }
  return notes;
}

function describe(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Who the crawler is to its user-agent lines: its product tokens (agentTokens'), or the lines
 * that name it (by line number: the compat entry's crawlers, named as robots-parser reads them). */
export type CrawlerNames = { readonly tokens: readonly string[] } | { readonly lines: readonly number[] };

/**
 * Which groups apply to a crawler (rules, explain, lint, usage, crawl-delay,
 * bulk's audit and the compat entry ask it): every group that one of its lines
 * names; failing that, every `*` group (`star`: 'global', the global group's
 * line; crawl-delay's runs take 'wildcard', any value that starts with `*`).
 * Decided by the core (assembly/parse/group-choice.ts), as its selector decides
 * for a compile without records: this gives it the lines and maps its answer.
 */
export function groupsThatApply<T extends { readonly agents: readonly AgentLine[] }>(
  groups: readonly T[],
  crawler: CrawlerNames,
  star: 'global' | 'wildcard' = 'global',
): T[] {
  const n = choose(groups, crawler, star);
  lastReach = n === 0 ? 'none' : (n & AGENT_CHOICE_NAMED) !== 0 ? 'own' : 'star';
  const chosen: T[] = [];
  if (n === 0) return chosen;
  const i32 = core().i32;
  for (let i = 0; i < (n & ~AGENT_CHOICE_NAMED); i++) chosen.push(groups[i32[(chosenAt >>> 2) + i]]);
  return chosen;
}

/** The groups that apply: every group naming one of the agent's tokens; failing that, every `*` group (groupsThatApply). */
export function applicableGroups(groups: readonly Group[], tokens: readonly string[]): Group[] {
  return groupsThatApply(groups, { tokens });
}

let lastReach: 'own' | 'star' | 'none' = 'none';

/** How the groups the last groupsThatApply chose reach its crawler (reachOf's answer for them, with no second
 * choice: groups naming it are chosen exactly when one does). */
export function lastChoiceReach(): 'own' | 'star' | 'none' {
  return lastReach;
}

/** How the groups that apply (applicableGroups') reach the crawler: groups that name it ('own'), the `*` groups alone ('star'), none ('none'). */
export function reachOf(applicable: readonly Group[], tokens: readonly string[]): 'own' | 'star' | 'none' {
  if (applicable.length === 0) return 'none';
  return (choose(applicable, { tokens }, 'global') & AGENT_CHOICE_NAMED) !== 0 ? 'own' : 'star';
}

/** The core's choices asked for (a test bounds the audit's: a count, not a clock). */
export const groupChoices = { count: 0 };

/** Where the core wrote the last choice's owners. */
let chosenAt = 0;

/** The groups whose lines the core's area holds (a crawler's questions come one after another
 * for the same records: their lines are written there once): the groups marked with the last mark,
 * and how (groupChoiceBuffers' moves). Weakly: a records' groups are not kept alive by having been
 * asked about (a cache weighs them as gone). A WeakMap, not a WeakRef: a WeakRef keeps its target
 * until the job ends, every records asked about in a loop that never yields. */
const heldGroups = new WeakMap<readonly unknown[], number>();
let heldMark = 0;
let heldLength = 0;
let heldMoves = -1;
let heldLines = 0;
let heldValues = 0;

/** Where choiceArea laid out the core's area for the last choice: the area, the lines (AGENT_FIELDS i32s each)
 * and how many, the owners out, the names (offsets in octets from the area's start, aligned). */
export const choiceLayout = { at: 0, entries: 0, lines: 0, out: 0, names: 0 };

/**
 * The core's area for a choice among the groups (their user-agent lines, as the records read them: one
 * AgentValues for all) laid out in choiceLayout: their values and lines written there (unless the area holds
 * them from the last choice), then room for `outOctets` of answers and `namesOctets` of names. False when no
 * group has a user-agent line (none applies). With `hold` false (a caller that asks once of these groups) they
 * are written without being remembered.
 */
export function choiceArea(groups: readonly { readonly agents: readonly AgentLine[] }[], outOctets: number, namesOctets: number, hold = true): boolean {
  let lines = heldLines;
  let values: AgentValues | undefined;
  const held = hold && heldGroups.get(groups) === heldMark && groups.length === heldLength;
  if (!held) {
    lines = 0;
    for (const g of groups) {
      lines += g.agents.length;
      if (values === undefined && g.agents.length > 0) values = g.agents[0].values;
    }
    if (values === undefined) return false;
  }
  // The area: the values, the lines (AGENT_FIELDS i32s each), the owners out, the names.
  const entriesAt = ((held ? heldValues : values!.length) + 3) & ~3;
  const outAt = entriesAt + lines * AGENT_FIELDS * 4;
  const namesAt = (outAt + outOctets + 3) & ~3;
  const c = core();
  const at = c.groupChoiceArea(namesAt + namesOctets);
  if (!held || c.groupChoiceMoves !== heldMoves) {
    if (values === undefined) values = firstValues(groups);
    const octets = values.octets;
    const u8 = c.u8;
    const i32 = c.i32;
    // (A loop for a few octets: a subarray costs more than copying them.)
    if (values.length > 64) u8.set(octets.subarray(0, values.length), at);
    else for (let i = 0; i < values.length; i++) u8[at + i] = octets[i];
    let e = (at + entriesAt) >>> 2;
    // (Plain loops, no callbacks: this runs for every crawler a host's verdicts ask.)
    for (let owner = 0; owner < groups.length; owner++) {
      for (const a of groups[owner].agents) {
        if (a.values !== values) throw new Error('groupsThatApply: groups of two records');
        i32[e + AGENT_START] = a.valueStart;
        i32[e + AGENT_END] = a.valueEnd;
        i32[e + AGENT_LINE] = a.line;
        i32[e + AGENT_OWNER] = owner;
        e += AGENT_FIELDS;
      }
    }
    // (Not held: the mark moves on all the same, so no groups are taken for held any longer.)
    if (hold) heldGroups.set(groups, ++heldMark);
    else heldMark++;
    heldLength = groups.length;
    heldMoves = c.groupChoiceMoves;
    heldLines = lines;
    heldValues = values.length;
  }
  choiceLayout.at = at;
  choiceLayout.entries = entriesAt;
  choiceLayout.lines = lines;
  choiceLayout.out = outAt;
  choiceLayout.names = namesAt;
  return true;
}

/** The core's choice among groups for the crawler: groupsApplying's answer. */
function choose(groups: readonly { readonly agents: readonly AgentLine[] }[], crawler: CrawlerNames, star: 'global' | 'wildcard'): number {
  groupChoices.count++;
  const byLines = 'lines' in crawler;
  // (The selector's encoding of the names, kept for the last names asked: a crawler asks host after host.)
  const encoded = 'tokens' in crawler ? encodedNames(crawler.tokens) : undefined;
  const namesOctets = 'lines' in crawler ? 4 + 4 * crawler.lines.length : encoded!.length;
  if (!choiceArea(groups, groups.length * 4, namesOctets)) return 0;
  const c = core();
  const { at, entries, lines, out, names } = choiceLayout;
  if ('lines' in crawler) putLines(c.i32, at + names, crawler.lines);
  else c.u8.set(encoded!, at + names);
  chosenAt = at + out;
  return c.exports.groupsApplying(at, at + entries, lines, at + names, byLines, star === 'wildcard', chosenAt);
}

function firstValues(groups: readonly { readonly agents: readonly AgentLine[] }[]): AgentValues {
  for (const g of groups) if (g.agents.length > 0) return g.agents[0].values;
  throw new Error('groupsThatApply: no user-agent line');
}

/** Line numbers as the core reads them (an i32 count, then each) at `at` (aligned). */
function putLines(i32: Int32Array, at: number, lines: readonly number[]): void {
  const i = at >>> 2;
  i32[i] = lines.length;
  for (let k = 0; k < lines.length; k++) i32[i + 1 + k] = lines[k];
}
