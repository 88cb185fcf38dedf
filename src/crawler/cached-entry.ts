// What RobotsCache keeps of an origin: the fetch's state, and the robots.txt
// deflated. A crawler's verdicts need only the compiled matcher, which the slot
// keeps beside the entry; the parsed records weigh about three times the file
// (12 KiB a host on the corpus, the file 4 KiB, deflated 0.8), so the file is
// parsed only when entry.robots is first asked, and then kept (and weighed) with
// the entry while it is in the cache. fflate: deflate and inflate that run in
// place, synchronously, in every runtime (browsers and workerd have only the
// asynchronous CompressionStream, node:zlib is Node's alone), loaded by the
// first RobotsCache (crawler-modules.ts): a body is packed after a fetch or a store read.
import { crawlerModules } from './crawler-modules.js';
import type { FetchState } from './robots-store.js';
import { parse, ParseOptions, RobotsTxt } from '../engine/robots-txt.js';

export interface RobotsEntry extends FetchState {
  /** The robots.txt when ok (on `stale` entries, the earlier good copy's),
   * parsed on first access and kept with the entry while it is in the cache
   * (an entry the cache has dropped parses again on each access). */
  readonly robots: RobotsTxt | undefined;
}

/** A robots.txt's octets as an entry keeps them. */
export interface PackedBody {
  readonly deflated: Uint8Array;
  readonly options: ParseOptions;
}

export function packBody(body: Uint8Array, options: ParseOptions): PackedBody {
  // Level 6 is zlib's default; the body is deflated once per fetch, a fraction of the fetch's own time.
  return { deflated: crawlerModules().deflateSync(body, { level: 6 }), options };
}

/** The octets again. */
export function unpackBody(packed: PackedBody): Uint8Array {
  return crawlerModules().inflateSync(packed.deflated);
}

/** Octets a packed body holds: its deflated octets, and the objects around
 * them (an estimate; test/crawler/robots-cache-capacity.test.ts holds a whole entry's
 * within 20% of what the heap shows). */
export function packedBytes(packed: PackedBody | undefined): number {
  return packed === undefined ? 0 : PACKED_OVERHEAD + packed.deflated.byteLength;
}
const PACKED_OVERHEAD = 160;

// (Declaration merging: an entry has the state's fields, assigned in its constructor.)
export interface CachedEntry extends FetchState {}

export class CachedEntry implements RobotsEntry {
  /** (Private fields: an entry spread or logged shows its state, not these.) */
  readonly #packed: PackedBody | undefined;
  /** The parsed file, once asked, while the entry is in a cache. */
  #robots: RobotsTxt | undefined;
  /** While the entry is in a cache: told when the file is parsed and kept (to weigh it). */
  #onParsed: ((robots: RobotsTxt) => void) | undefined;

  /** state: a FetchState's fields only (a record's `failures` stays with the slot). */
  constructor(state: FetchState, packed: PackedBody | undefined, robots?: RobotsTxt) {
    Object.assign(this, state);
    this.#packed = packed;
    this.#robots = robots;
  }

  get robots(): RobotsTxt | undefined {
    if (this.#robots !== undefined) return this.#robots;
    if (this.#packed === undefined) return undefined;
    const robots = parse(unpackBody(this.#packed), this.#packed.options);
    const onParsed = this.#onParsed;
    if (onParsed !== undefined) {
      this.#robots = robots;
      onParsed(robots);
    }
    return robots;
  }

  /** The parsed file if one is kept (without parsing one). */
  get parsed(): RobotsTxt | undefined {
    return this.#robots;
  }

  /** In a cache now: a parsed file is kept, and `onParsed` told. */
  keepParsed(onParsed: (robots: RobotsTxt) => void): void {
    this.#onParsed = onParsed;
  }

  /** The kept parsed file, given to the entry that follows this one (a stale copy's), and no longer this one's. */
  handOver(): RobotsTxt | undefined {
    const robots = this.#robots;
    this.#robots = undefined;
    return robots;
  }

  /** The parsed file dropped (its matchers freed), the entry still in the cache: the next question parses it again. */
  dropParsed(): void {
    this.#robots?.dispose();
    this.#robots = undefined;
  }

  /** Out of the cache: the parsed file's matchers are freed (a caller holding it can still use it), and none is kept any more. */
  leave(): void {
    this.#onParsed = undefined;
    this.#robots?.dispose();
    this.#robots = undefined;
  }

  /** Its state as a record has it (without the body). */
  state(failures: number): FetchState & { failures: number } {
    return { ...this, failures }; // (its own fields are the state's: the octets are private, robots a getter)
  }

  /** The kept octets (a stale entry carries its copy's over). */
  get packed(): PackedBody | undefined {
    return this.#packed;
  }
}
