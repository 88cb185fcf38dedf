// The page's classification worker: the engine compiled here too, so 100,000
// URLs never block the page. A newer job makes the running one stop at its next
// chunk (each chunk ends with a turn of the event loop, where messages arrive).
import { parse, type Matcher, PURPOSES, type RobotsTxt } from '../src/index.js';
import { robotsInternals } from '../src/engine/robots-txt.js';
import { usageOf, type CrawlerUsage } from '../src/engine/usage/usage.js';
import { controlStatementsOf, controlTokensOf } from '../src/engine/usage/control-tokens.js';
import { PREFERENCE_CODE, type Chunk, type Job, type Reply } from './protocol.js';
import { listNotes } from './url-notes.js';

/** The file whose control tokens speak for the crawler (an operator lists it), and the crawler. */
interface Control {
  robots: RobotsTxt;
  agents: string | readonly string[];
}

/** URLs a chunk: small enough for the page to render between its frames. */
const CHUNK = 1_000;
let latest = 0;

const post = (reply: Reply, transfer: Transferable[] = []): void => (self as unknown as Worker).postMessage(reply, transfer);
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

self.onmessage = (e: MessageEvent<Job>) => {
  latest = e.data.seq;
  void run(e.data);
};

async function run(job: Job): Promise<void> {
  const matchers: Matcher[] = [];
  /** The use-preference lines of the crawler's groups (this version), or null when there are none. */
  let usage: CrawlerUsage | null = null;
  let control: Control | null = null;
  try {
    let sitemaps: readonly string[] = [];
    const compile = (body: string) => {
      const robots = parse(body, { profile: job.profile });
      const m = robots.compile(job.agents);
      if (matchers.length === 0) {
        sitemaps = robots.sitemaps;
        const u = robotsInternals(robots).crawlerUsage(job.agents);
        // (A crawler an operator lists: its control tokens' verdicts state purposes too, as usage() counts them.)
        if (controlTokensOf(job.agents, undefined).length > 0) control = { robots, agents: job.agents };
        if (u.rules.length > 0 || u.signals.length > 0 || control !== null) usage = u;
      }
      matchers.push(m);
      return m;
    };
    const now = compile(job.body);
    const next = job.bodyNext === null ? null : compile(job.bodyNext);
    // The list's notes (another site, not a URL) here too: a pass over every URL.
    const notes = listNotes(job.urls, sitemaps);
    post({ type: 'notes', seq: job.seq, summary: notes.summary, site: notes.site });
    for (let from = 0; from < job.urls.length; from += CHUNK) {
      if (job.seq !== latest) return;
      const urls = job.urls.slice(from, from + CHUNK);
      const [verdicts, lines, purposes] = decide(now, urls, usage, control);
      const [verdictsNext, linesNext] = next === null ? [null, null] : decide(next, urls, null);
      const chunkNotes = notes.notes.slice(from, from + CHUNK);
      const chunk: Chunk = { type: 'chunk', seq: job.seq, from, verdicts, lines, verdictsNext, linesNext, notes: chunkNotes, purposes };
      post(chunk, [verdicts.buffer, lines.buffer, chunkNotes.buffer, ...(verdictsNext ? [verdictsNext.buffer, linesNext!.buffer] : []), ...(purposes ? [purposes.buffer] : [])]);
      await turn();
    }
    if (job.seq === latest) post({ type: 'done', seq: job.seq });
  } catch (err) {
    // A crawler name the profile refuses, a URL that is not a string: the page says so.
    post({ type: 'error', seq: job.seq, message: err instanceof Error ? err.message : String(err) });
  } finally {
    for (const m of matchers) m.dispose();
    (usage as CrawlerUsage | null)?.paths?.dispose(); // (its path patterns' matcher: freed with the others)
    (control as Control | null)?.robots.dispose(); // (the control tokens' matchers)
  }
}

/** The URLs' verdicts and deciding lines, and (given the crawler's usage lines) their purposes, as usage() gives them. */
function decide(m: Matcher, urls: string[], usage: CrawlerUsage | null, control: Control | null = null): [Uint8Array, Uint32Array, Uint8Array | null] {
  const verdicts = new Uint8Array(urls.length);
  const lines = new Uint32Array(urls.length);
  const purposes = usage === null ? null : new Uint8Array(urls.length * PURPOSES.length);
  for (let i = 0; i < urls.length; i++) {
    const v = m.explain(urls[i]);
    verdicts[i] = v.allowed ? 1 : 0;
    lines[i] = v.line;
    // (A URL it may not fetch has no purpose from robots.txt: usageOf says unknown without reading a line.)
    if (purposes !== null && v.allowed) {
      const u = usageOf(usage!, v, urls[i], undefined, control === null ? undefined : controlStatementsOf(robotsInternals(control.robots), urls[i], control.agents)).purposes;
      for (let k = 0; k < PURPOSES.length; k++) purposes[i * PURPOSES.length + k] = PREFERENCE_CODE[u[PURPOSES[k]]];
    }
  }
  return [verdicts, lines, purposes];
}
