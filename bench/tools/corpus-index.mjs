// The corpus as Common Crawl publishes it, for the audit's tools (audit-rate.mjs,
// audit-instructions.mjs): its robots.txt files captured in a WARC by warcio,
// gzipped per record, then indexed by the built command (`robots index`).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';

/** Writes DIR/corpus.warc.gz and its index DIR/idx (with the command of the checkout at `root`); gives the index's path and the sites in it. */
export async function corpusIndex(corpus, dir, root, stdio) {
  const parts = [];
  const hosts = readdirSync(corpus).sort();
  for (const host of hosts) {
    const record = await WARCRecord.create(
      { url: `https://${host}/robots.txt`, date: '2024-01-01T00:00:00Z', type: 'response', httpHeaders: { 'Content-Type': 'text/plain' }, statusline: 'HTTP/1.1 200 OK' },
      (async function* () {
        yield readFileSync(path.join(corpus, host));
      })(),
    );
    parts.push(await WARCSerializer.serialize(record, { gzip: true }));
  }
  const warc = path.join(dir, 'corpus.warc.gz');
  writeFileSync(warc, Buffer.concat(parts));
  const index = path.join(dir, 'idx');
  execFileSync(process.execPath, [path.join(root, 'dist/cli.js'), 'index', '--out', index, '-q', warc], { stdio });
  return { index, hosts };
}
