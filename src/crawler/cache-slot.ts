// What RobotsCache holds per origin: a slot, its entry (the fetch's state and
// the file deflated, cached-entry.ts) with what the cache adds to it (the
// compiled matcher, the back-off count, the per-origin answers), and the
// estimate of the bytes it holds, which the cache's MatcherLru bounds.
import type { Matcher } from '../engine/match/matcher.js';
import { parse, robotsInternals, type RobotsTxt } from '../engine/robots-txt.js';
import { CachedEntry, packedBytes, type PackedBody, unpackBody } from './cached-entry.js';
import type { EntryState } from './freshness-policy.js';
import type { CrawlerUsage } from '../engine/usage/usage.js';
import { usageBytes } from '../engine/usage/usage-answers.js';

/** An origin's answers that do not depend on the URL, found once per entry. */
export interface Answers {
  crawlDelay: number | undefined;
  sitemaps: readonly string[];
  /** The crawler's use-preference lines (Content-Usage, Content-Signal), read; undefined when the file is not ok. */
  usage: CrawlerUsage | undefined;
  /** What they hold, for the cache's budget. */
  bytes: number;
}
const NO_ANSWERS: Answers = Object.freeze({ crawlDelay: undefined, sitemaps: Object.freeze([]) as readonly string[], usage: undefined, bytes: 0 });

export interface Slot {
  entry: CachedEntry;
  /** An ok entry's, compiled when it is kept; disposed when the slot leaves the cache. */
  matcher: Matcher | undefined;
  /** Consecutive unreachable fetches, for the back-off. */
  failures: number;
  /** Out of the cache (evicted, replaced or cleared): its matcher is gone. */
  evicted: boolean;
  /** The crawl-delay and sitemaps, once asked (an ok entry's come from its file). */
  answers: Answers | undefined;
  /** The parsed file's heldBytes when last weighed after an answer it keeps (keptChanged). */
  parsedBytes: number;
}

/** What a refresh knows of the origin's previous outcome. */
export interface Prior {
  state: EntryState;
  /** The previous slot in this cache: its copy and automaton carry over to a stale entry. */
  slot: Slot | undefined;
  /** The copy's octets (from the store), to share a stale entry. */
  body: Uint8Array | undefined;
}

/** An entry's own objects (the entry, its slot, strings, the map's slot); its
 * deflated file and matcher weigh themselves. On the corpus the whole entry's
 * estimate is within 20% of what the heap shows (test/crawler/robots-cache-capacity.test.ts). */
const ENTRY_OVERHEAD = 512;
/** Answers' own objects (the object, the frozen array), and a string's header: a string holds 2 octets a character at most. */
const ANSWERS_OVERHEAD = 96;
const STRING_OVERHEAD = 32;

/** A slot for an entry's state and kept file, and its matcher (and what a stale entry carries over of its copy). */
export function slotOf(state: EntryState, packed: PackedBody | undefined, matcher?: Matcher, robots?: RobotsTxt, answers?: Answers): Slot {
  const { failures, ...fields } = state;
  return { entry: new CachedEntry(fields, packed, robots), matcher, failures, evicted: false, answers, parsedBytes: 0 };
}

export function priorOf(slot: Slot): Prior {
  return { state: slot.entry.state(slot.failures), slot, body: undefined };
}

/** The bytes a slot holds now (its matcher's automaton grows with verdicts; a parsed file and answers are added once asked,
 * and the file's heldBytes grows with the answers it keeps). */
export function slotBytes(slot: Slot): number {
  const entry = slot.entry;
  return ENTRY_OVERHEAD + packedBytes(entry.packed) + (slot.matcher?.heldBytes ?? 0) + (slot.answers?.bytes ?? 0) + (entry.parsed ? robotsInternals(entry.parsed).heldBytes : 0);
}

/** The share of the cache's budget one entry's kept answers may hold. Past it the entry's parsed file is dropped
 * (parsed again when next asked, its answers kept anew), not the entry: evicting the entry would fetch the file again. */
const KEPT_SHARE = 1 / 4;

/** Whether what the entry's parsed file keeps of its answers changed since the slot was last weighed
 * (a number compared an answer: most find their answer kept), the new figure noted; answers past their share
 * of `maxBytes` are dropped with the parsed file. */
export function keptChanged(slot: Slot, maxBytes: number): boolean {
  const parsed = slot.entry.parsed;
  if (parsed === undefined || slot.evicted) return false;
  const internals = robotsInternals(parsed);
  if (internals.usageAnswers.heldBytes > maxBytes * KEPT_SHARE) {
    slot.entry.dropParsed();
    slot.parsedBytes = 0;
    return true;
  }
  const bytes = internals.heldBytes;
  if (bytes === slot.parsedBytes) return false;
  slot.parsedBytes = bytes;
  return true;
}

/** What leaves the cache with a slot: its matcher is freed, and its entry keeps no parsed file (a caller's copy stays usable). */
export function releaseSlot(slot: Slot): void {
  slot.evicted = true;
  slot.matcher?.dispose();
  slot.matcher = undefined;
  slot.entry.leave();
}

/** The crawler's crawl-delay, usage lines and the sitemaps of an entry's file (the kept parse, or one parse just for them); none unless ok. */
export function answersOf(slot: Slot, agent: string | readonly string[]): Answers {
  const packed = slot.entry.status === 'ok' ? slot.entry.packed : undefined;
  if (packed === undefined) return NO_ANSWERS;
  // (A parse made here compiles nothing: it holds no core memory, and is dropped.)
  const robots = slot.entry.parsed ?? parse(unpackBody(packed), packed.options);
  const sitemaps = Object.freeze([...robots.sitemaps]);
  const usage = robotsInternals(robots).crawlerUsage(agent);
  // (The kept parse's usage lines are its own, counted in its heldBytes.)
  const linesBytes = robots === slot.entry.parsed ? 0 : usageBytes(usage);
  return { crawlDelay: robots.crawlDelay(agent), sitemaps, usage, bytes: ANSWERS_OVERHEAD + linesBytes + sitemaps.reduce((n, u) => n + STRING_OVERHEAD + 2 * u.length, 0) };
}
