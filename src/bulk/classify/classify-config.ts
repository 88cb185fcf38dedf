// What a classification needs, as plain data (it crosses to worker threads),
// and the engine built from it: one matcher, or one per host of a directory.
import { parse, type Matcher, type Profile } from '../../index.js';
import { compileOctets } from '../../engine/robots-txt.js';
import { LineClassifier } from './line-classifier.js';
import { UNREACHABLE, type BlockResult, type CrawlerMatchers, type OutputBuffers, type OutputFormat, type OutputWriter } from './classification.js';
import type { Shard } from '../hosts/shard.js';
import { BulkError } from '../base/errors.js';
import { compileCrawlers, HostMatchers } from './host-matchers.js';
import type { FilesReadAhead } from './host-files-ahead.js';
import { slotsOf } from './operator-slots.js';
import type { WarcIndexData } from '../sources/warc/warc-index.js';

export interface ClassifyConfig {
  /** One robots.txt for every URL (--robots: read once by the main thread, a file, stdin or a URL) ... */
  robotsBody?: Uint8Array;
  /** ... or, for a --robots URL that could not be fetched, every URL disallowed ... */
  robotsUnreachable?: boolean;
  /** ... or DIR/<host> for each URL's host ... */
  robotsDir?: string;
  /** ... or the robots.txt captures of WARC files (indexed by the main thread). */
  warc?: WarcIndexData;
  /** A host with no robots.txt (no file, no capture): all allowed (default) or all disallowed. */
  missing?: 'allow' | 'disallow';
  agents: string[];
  /** --crawlers: one verdict per URL for each (agents unused). */
  crawlers?: string[];
  /** --operators: the ids of operators (src/data/operators.ts) whose answer per purpose each URL gets (yes, no, unknown). */
  operators?: string[];
  /** With crawlers: each one's use purposes too (JSON lines: always; TSV: --usage). */
  usage?: boolean;
  /** --shard i/N: only the URLs of this machine's hosts. */
  shard?: Shard;
  profile: Profile;
  format: OutputFormat;
  maxOctets: number;
  /** Bound on the host cache of one thread (bytes). */
  cacheBytes: number;
  /** --strict-robots-dir: a host file that cannot be read stops the run. */
  strictRobotsDir?: boolean;
}

/** A block's verdicts, and what the host cache did meanwhile. */
export interface ClassifiedBlock extends BlockResult {
  /** robots.txt files parsed and compiled for this block (--robots-dir). */
  loads: number;
  /** Hosts dropped from the cache to keep its byte bound. */
  evictions: number;
  /** Host files that could not be read (their URLs disallowed), first met in this block: why, each. */
  unreadable: string[];
}

/** Classifies blocks of URL lines in this thread. */
export class BlockClassifier {
  private readonly lines: LineClassifier;
  private readonly single: Matcher | typeof UNREACHABLE | null = null;
  /** With crawlers and one robots.txt: its matchers. */
  private readonly singleAll: CrawlerMatchers | null = null;
  private readonly hosts: HostMatchers | null = null;

  constructor(config: ClassifyConfig) {
    // Crawlers and operators' purposes: slots of one table (operator-slots.ts); the operators' need purpose codes.
    const withOperators = (config.operators?.length ?? 0) > 0;
    const slots = config.crawlers !== undefined || withOperators
      ? slotsOf(config.crawlers, config.operators, config.crawlers !== undefined && (config.usage === true || config.format === 'jsonl'))
      : undefined;
    const crawlers = slots?.names;
    this.lines = new LineClassifier(config.format, crawlers, config.shard, config.usage, slots);
    const usage = crawlers !== undefined && (config.usage === true || config.format === 'jsonl' || withOperators);
    if (config.robotsDir !== undefined || config.warc !== undefined) {
      this.hosts = new HostMatchers({ ...config, crawlers, dir: config.robotsDir, warc: config.warc, missing: config.missing, strict: config.strictRobotsDir, usage });
    } else if (crawlers !== undefined) {
      this.singleAll = config.robotsUnreachable
        ? { matchers: crawlers.map(() => UNREACHABLE) }
        : compileCrawlers(parse(config.robotsBody!, { profile: config.profile, maxOctets: config.maxOctets }), crawlers, config.format === 'jsonl', usage);
    } else if (config.robotsUnreachable) {
      this.single = UNREACHABLE;
    } else {
      this.single = compileAgents(config.robotsBody!, config);
    }
  }

  /** See LineClassifier.inputArea. */
  inputArea(n: number): Uint8Array {
    return this.lines.inputArea(n);
  }

  /** See LineClassifier.kept. */
  get kept(): Uint8Array {
    return this.lines.kept;
  }

  releaseKept(): void {
    this.lines.releaseKept();
  }

  /** splitLines calls made (see LineClassifier.splitCalls). */
  get splitCalls(): number {
    return this.lines.splitter.calls;
  }

  /** Frees the host cache's matchers (the classifier owns them: nothing else would free them). */
  close(): void {
    this.hosts?.close();
  }

  /** ahead: the block's host files, read ahead by another thread (--robots-dir; see host-files-ahead.ts), and the block as it split it. */
  classify(block: Uint8Array | readonly Uint8Array[], output?: OutputBuffers | OutputWriter, ahead?: FilesReadAhead): ClassifiedBlock {
    if (this.singleAll !== null) return { ...this.lines.classify(block, this.singleAll, output), loads: 0, evictions: 0, unreadable: [] };
    if (this.single !== null) {
      const single = this.single;
      return { ...this.lines.classify(block, single === UNREACHABLE ? () => UNREACHABLE : single, output), loads: 0, evictions: 0, unreadable: [] };
    }
    const hosts = this.hosts!;
    const { loads, evictions } = hosts;
    hosts.readAhead(ahead ?? null);
    let r: BlockResult;
    try {
      r = this.lines.classify(block, hosts.crawling ? (key, origin) => hosts.getAll(key, origin) : (key, origin) => hosts.get(key, origin), output, ahead?.splits);
    } finally {
      hosts.readAhead(null);
    }
    return { ...r, loads: hosts.loads - loads, evictions: hosts.evictions - evictions, unreadable: hosts.takeUnreadable() };
  }
}

/** Parses and compiles, a bad agent a BulkError (the command checked the names before: a thread meets none). JSON lines name the deciding rule: the core keeps the rules' texts then. */
function compileAgents(body: Uint8Array, config: Pick<ClassifyConfig, 'agents' | 'profile' | 'maxOctets' | 'format'>): Matcher {
  try {
    return compileOctets(body, { profile: config.profile, maxOctets: config.maxOctets }, config.agents, { ruleTexts: config.format === 'jsonl' });
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) throw new BulkError(e.message);
    throw e;
  }
}
