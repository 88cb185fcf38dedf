// The benchmark corpus: every robots.txt of ../shared/corpus/robots with its
// probe URLs (../shared/corpus/probes-seed1.jsonl.gz), grouped by host.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const SHARED = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../shared');

export function loadCorpus() {
  const probesFile = path.join(SHARED, 'corpus', 'probes-seed1.jsonl.gz');
  if (!existsSync(probesFile)) {
    throw new Error(`benchmark data not found at ${SHARED}/corpus: the bench reads ../shared beside the project`);
  }
  const byHost = new Map();
  for (const line of gunzipSync(readFileSync(probesFile)).toString('utf8').split('\n')) {
    if (!line) continue;
    const { host, url } = JSON.parse(line);
    let entry = byHost.get(host);
    if (!entry) {
      const body = readFileSync(path.join(SHARED, 'corpus', 'robots', host));
      entry = { host, body, text: body.toString('utf8'), urls: [], origin: new URL(url).origin };
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

/** The n files with the most rules. */
export function mostRules(hosts, n) {
  return [...hosts].sort((a, b) => b.rules - a.rules).slice(0, n);
}
