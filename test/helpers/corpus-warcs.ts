// The shared corpus (4,241 real robots.txt files) as WARC files written by
// warcio: a 200 capture of https://<host>/robots.txt per file, gzip per record,
// in the order of the hosts' names; all of it in one file, and in three parts
// (the i-th host in part i mod 3) for the runs that read several WARCs. Written
// once a run (test/helpers/made-once.ts): each record serialized once, the four
// files cut from the same members. Read them; never write into them.
import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { madeOnce } from './made-once.js';
import { SHARED } from './shared-data.js';
import { serializeCapture } from './warc-files.js';

const CORPUS = path.join(SHARED, 'corpus', 'robots');
export const CORPUS_PARTS = 3;

export interface CorpusWarcs {
  /** Every file of the corpus. */
  all: string;
  /** Part k holds the hosts whose place in name order is k mod CORPUS_PARTS. */
  parts: string[];
}

export async function corpusWarcs(): Promise<CorpusWarcs> {
  const folder = await madeOnce('corpus-warcs', async (out) => {
    const hosts = readdirSync(CORPUS).sort();
    const members: Uint8Array[] = [];
    for (const host of hosts) members.push(await serializeCapture({ url: `https://${host}/robots.txt`, body: await readFile(path.join(CORPUS, host)) }, true));
    await writeFile(path.join(out, 'all.warc.gz'), Buffer.concat(members));
    for (let k = 0; k < CORPUS_PARTS; k++) await writeFile(path.join(out, `part${k}.warc.gz`), Buffer.concat(members.filter((_, i) => i % CORPUS_PARTS === k)));
  });
  return { all: path.join(folder, 'all.warc.gz'), parts: Array.from({ length: CORPUS_PARTS }, (_, k) => path.join(folder, `part${k}.warc.gz`)) };
}
