// robots index writes each capture into its shard as it is read, holding only the last 64 KiB of
// records (SUSPECT_OCTETS) in case a damage follows: in a WARC three times that long, cut short or
// damaged at its end, captures are handed on long before the end and the last ones held, and the
// index must still say what --robots-warc says of every host. (A damage warcio reports, whose marks
// fall on held captures, is warc-index.test.ts's 'a damaged WARC'.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { writeWarc } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-index-held-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(dir, ...p);
const HOSTS = 60;
/** ~3 KiB a body: 60 of them are about 190 KiB of WARC, three times the held window. */
const body = (h: number) => `User-agent: *\nDisallow: /private-${h}\n` + Array.from({ length: 120 }, (_, k) => `# ${h}-${k} ${'x'.repeat(18)}\n`).join('');

describe('robots index: captures held until no damage can mark them', () => {
  it.each(['whole', 'cut', 'flipped'])('a long WARC (%s): the index says of every host what --robots-warc says', async (how) => {
    const warc = at(`${how}.warc.gz`);
    const good = await writeWarc(warc, Array.from({ length: HOSTS }, (_, h) => ({ url: `http://h${h}.example/robots.txt`, body: body(h) })));
    const bad = Buffer.from(good);
    if (how === 'flipped') for (let k = bad.length - 60; k < bad.length - 40; k++) bad[k] ^= 0x5a;
    writeFileSync(warc, how === 'cut' ? bad.subarray(0, bad.length - 30) : bad);
    const r = await robots(['index', '--shards', '3', '--out', at(how), warc]);
    expect(r.status).toBe(0);
    const urls = Array.from({ length: HOSTS }, (_, h) => `http://h${h}.example/private-${h}\nhttp://h${h}.example/public\n`).join('');
    const viaWarc = await robots(['classify', '--robots-warc', warc, '--format', 'jsonl', '-q'], urls);
    const viaIndex = await robots(['classify', '--robots-index', at(how), '--format', 'jsonl', '-q'], urls);
    expect(viaIndex.stdout).toBe(viaWarc.stdout);
    expect(viaIndex.stdout.split('\n').filter((l) => l.includes('"allowed":false')).length).toBeGreaterThan(10);
  });
});
