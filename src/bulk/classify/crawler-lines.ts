// What a robots.txt says of a list of crawlers, read from the lexer's lines in
// the core (src/engine/parse/lexer.ts), with no records: whether any
// user-agent line names one of them, and whether it has any use-preference
// line (Content-Usage, Content-Signal). Most files of a crawl name none of 166
// AI crawlers and have no such line (4,095 of the corpus' 4,241; the others
// name 1 to 6 of them): the crawlers no line names get the `*` groups and no
// purpose, and host-matchers.ts compiles one matcher for them (as for one
// crawler) and one per set of rules of the others, with no need to read the
// whole file into records (RobotsTxt's groups), as compileCrawlers does.
//
// In: the octets the parser reads (cut at maxOctets by the caller), the
// crawlers' names in ASCII lower case. Out: what the records would say on
// these two points, exactly: the crawlers' names that user-agent lines name,
// as the core decides it for the records (assembly/parse/group-choice.ts
// agentNameIndex: the global group's `*` names none); and whether any
// Content-Usage or Content-Signal line is there.
import { core } from '../../engine/wasm/core.js';
import { lexBatches } from '../../engine/parse/lexer.js';
import { encodedNames, namesTheCoreReads } from '../../engine/parse/rule-selection.js';
import {
  KEY_CONTENT_SIGNAL, KEY_CONTENT_USAGE, KEY_KIND, KEY_USER_AGENT, LEX_FIELDS, LEX_KEY, LEX_TYPE, LEX_TYPE_RECORD, LEX_VALUE_END, LEX_VALUE_START,
} from '../../engine/wasm/layout.js';

export interface CrawlerLines {
  /** The crawlers' names (lower case) that user-agent lines name, if any. */
  named: ReadonlySet<string> | null;
  /** A Content-Usage or Content-Signal line is there (in a group or not). */
  usage: boolean;
}

/** The lines of body that matter to the crawlers (lowerNames: their names in ASCII lower case). */
export function crawlerLines(body: Uint8Array, lowerNames: ReadonlySet<string>): CrawlerLines {
  let named: Set<string> | null = null;
  let usage = false;
  const names = coreNamesOf(lowerNames);
  const namesAt = core().lineNamesBuffer(names.octets.length);
  // (A run classifies file after file for the same crawlers: their names are put there once. The
  // area moves only for longer names, which are other names.)
  if (namesAt !== heldAt || names !== held) {
    core().u8.set(names.octets, namesAt);
    heldAt = namesAt;
    held = names;
  }
  try {
    lexBatches(body, visit);
  } finally {
    core().forgetBody(body); // (the caller's octets, which it may change: the next lexing copies them again)
  }
  return { named, usage };

  function visit(r: Int32Array, from: number, to: number, bodyPtr: number): void {
    const x = core().exports;
    for (let i = from; i < to; i += LEX_FIELDS) {
      if (r[i + LEX_TYPE] !== LEX_TYPE_RECORD) continue;
      const kind = r[i + LEX_KEY] & KEY_KIND;
      if (kind === KEY_CONTENT_USAGE || kind === KEY_CONTENT_SIGNAL) {
        usage = true;
      } else if (kind === KEY_USER_AGENT) {
        const k = x.agentNameIndex(bodyPtr + r[i + LEX_VALUE_START], bodyPtr + r[i + LEX_VALUE_END], namesAt);
        if (k >= 0) (named ??= new Set()).add(names.list[k]);
      }
    }
  }
}

/** The names the core's names area holds, and where. */
let held: { list: readonly string[]; octets: Uint8Array } | undefined;
let heldAt = 0;

/** The names as the core reads them (namesTheCoreReads'), in their order, per set. */
const coreNames = new WeakMap<ReadonlySet<string>, { list: readonly string[]; octets: Uint8Array }>();

function coreNamesOf(lowerNames: ReadonlySet<string>): { list: readonly string[]; octets: Uint8Array } {
  let found = coreNames.get(lowerNames);
  if (found === undefined) {
    const list = namesTheCoreReads(lowerNames);
    coreNames.set(lowerNames, (found = { list, octets: encodedNames(list) }));
  }
  return found;
}
