// The benchmark corpus: every robots.txt of ../shared/corpus/robots with its
// probe URLs (../shared/corpus/probes-seed1.jsonl.gz), grouped by host, and
// Google's verdicts on those probes (google-verdicts-seed1.jsonl.gz).
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const SHARED = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../shared');

const PROBES = path.join(SHARED, 'corpus', 'probes-seed1.jsonl.gz');
const VERDICTS = path.join(SHARED, 'corpus', 'google-verdicts-seed1.jsonl.gz');

export function haveCorpus() {
  return existsSync(PROBES) && existsSync(VERDICTS);
}

/** The JSON values of a gzipped JSON-lines file, parsed as they are reached. */
function* jsonLines(file) {
  for (const l of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) if (l.length > 0) yield JSON.parse(l);
}

/** Hosts as { host, body, bytes, text, origin, urls, rules } (`bytes` and `body`: the same octets); the first `limit`. */
export function loadCorpus({ limit = Infinity } = {}) {
  const probesFile = PROBES;
  if (!existsSync(probesFile)) {
    throw new Error(`benchmark data not found at ${SHARED}/corpus: the bench reads ../shared beside the project`);
  }
  const byHost = new Map();
  for (const { host, url } of jsonLines(probesFile)) {
    let entry = byHost.get(host);
    if (!entry) {
      if (byHost.size >= limit) break; // the probes come grouped by host: the rest are other hosts
      const body = readFileSync(path.join(SHARED, 'corpus', 'robots', host));
      entry = { host, body, bytes: body, text: body.toString('utf8'), urls: [], origin: new URL(url).origin };
      byHost.set(host, entry);
    }
    entry.urls.push(url);
  }
  const index = readFileSync(path.join(SHARED, 'corpus', 'INDEX.tsv'), 'utf8').trim().split('\n').slice(1);
  const rules = new Map(index.map((l) => l.split('\t')).map((f) => [f[0], Number(f[3]) + Number(f[4])]));
  const hosts = [...byHost.values()];
  for (const h of hosts) h.rules = rules.get(h.host) ?? 0;
  return hosts;
}

/** For --quick: every eighth (or `every`-th) host, a spread-out share of the corpus; else all. */
export function quickSample(hosts, quick, every = 8) {
  return quick ? hosts.filter((_, i) => i % every === 0) : hosts;
}

/** The n files with the most rules. */
export function mostRules(hosts, n) {
  return [...hosts].sort((a, b) => b.rules - a.rules).slice(0, n);
}

/** Google's verdicts and matching lines grouped by host then agent: Map<host, Map<agent, { urls, allowed, lines }>>. */
export function loadGoogleVerdicts() {
  const byHost = new Map();
  for (const { host, url, agent, allowed, line } of jsonLines(VERDICTS)) {
    let agents = byHost.get(host);
    if (!agents) byHost.set(host, (agents = new Map()));
    let list = agents.get(agent);
    if (!list) agents.set(agent, (list = { urls: [], allowed: [], lines: [] }));
    list.urls.push(url);
    list.allowed.push(allowed);
    list.lines.push(line);
  }
  return byHost;
}

/**
 * The conformance vectors (../shared/conformance/verdicts.json) with one agent, as
 * { id, bytes, agent, url, google } (google: Google's verdict, google_allowed where the
 * vector has one, else allowed). The 34 vectors of several agents are left out: the peers
 * take one agent.
 */
export function loadConformance() {
  const file = path.join(SHARED, 'conformance', 'verdicts.json');
  if (!existsSync(file)) return [];
  /** @type {{ id: string, robots?: string, robots_b64?: string, agents: string[], url: string, allowed: boolean, google_allowed?: boolean }[]} */
  const all = JSON.parse(readFileSync(file, 'utf8'));
  return all.filter((v) => v.agents.length === 1).map((v) => ({
    id: v.id,
    bytes: v.robots_b64 !== undefined ? Buffer.from(v.robots_b64, 'base64') : Buffer.from(v.robots ?? '', 'utf8'),
    agent: v.agents[0],
    url: v.url,
    google: v.google_allowed ?? v.allowed,
  }));
}
