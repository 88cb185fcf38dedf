// `robots shard`: URL lines labelled with their host's shard (`i<TAB>line`),
// the partitioning key a batch engine needs to give `classify --shard i/N` all
// of shard i's lines (docs/bulk.md: a Spark or Hadoop Streaming job).
import { createReadStream } from 'node:fs';
import { LineSharder } from '../bulk/classify/line-sharder.js';
import { lineBlocks } from '../bulk/sources/line-blocks.js';
import { MAX_SHARDS } from '../bulk/index/robots-index-writer.js';
import { CliError, reason } from './errors.js';

export async function shardCommand(inputPath: string | undefined, o: { shards: string }): Promise<number> {
  const shards = Number(o.shards);
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) throw new CliError(`--shards must be a whole number from 1 to ${MAX_SHARDS}, got "${o.shards}"`);
  if ((inputPath === undefined || inputPath === '-') && process.stdin.isTTY) throw new CliError('no URLs: give a file of URLs or pipe them to stdin (robots shard --help)');
  const input = inputPath === undefined || inputPath === '-' ? process.stdin : createReadStream(inputPath);
  const opened = new Promise<void>((resolve, reject) => {
    if (input === process.stdin) return resolve();
    input.once('open', () => resolve());
    input.once('error', (e: Error) => reject(new CliError(`cannot read URL file ${inputPath}: ${reason(e)}`)));
  });
  await opened;
  const sharder = new LineSharder(shards);
  for await (const { parts } of lineBlocks(input)) {
    const out = sharder.label(parts);
    if (!process.stdout.write(out)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  return 0;
}
