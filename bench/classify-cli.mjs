// Runs the built `robots classify` as a user runs it (a child process, output to
// /dev/null) and reads its own figure from the summary it prints on stderr. Used
// by the end-to-end workloads of workloads/classify.mjs.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SUMMARY = /^robots classify: ([\d,]+) URLs.* in ([\d.]+) s/m;

/**
 * A file of n URLs on host: the given paths over and over. Made once and kept in
 * the temp folder (10 million URLs take some seconds to write).
 */
export async function repeatedUrlFile(host, paths, n) {
  const file = path.join(os.tmpdir(), `robots-bench-${host}-${n}.txt`);
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  const batch = 10_000;
  for (let i = 0; i < n; i += batch) {
    let text = '';
    for (let k = i; k < Math.min(n, i + batch); k++) text += `https://${host}${paths[k % paths.length]}\n`;
    if (!out.write(text)) await new Promise((r) => out.once('drain', () => r(undefined)));
  }
  await new Promise((r) => out.end(r));
  renameSync(partial, file);
  return file;
}

/** A file of the given URLs, one per line, in the temp folder. */
export function urlListFile(name, urls) {
  const file = path.join(os.tmpdir(), `robots-bench-${name}.txt`);
  writeFileSync(file, urls.join('\n') + '\n');
  return file;
}

const INDEXED = /^robots classify: indexed .* ([\d.]+) MiB in ([\d.]+) s/m;
const TIME = '/usr/bin/time';

/**
 * One run of `robots classify ARGS --threads N`: URLs, the command's own URLs/s,
 * wall-clock URLs/s, with --robots-warc the indexing pass's MiB/s, and the
 * peak resident memory (MiB) when /usr/bin/time is there.
 */
export function runClassify(args, threads) {
  const began = performance.now();
  const command = [CLI, 'classify', ...args, '--threads', String(threads), '--out', '/dev/null'];
  const timed = existsSync(TIME);
  const r = timed
    ? spawnSync(TIME, ['-f', 'peak-kib %M', process.execPath, ...command], { encoding: 'utf8' })
    : spawnSync(process.execPath, command, { encoding: 'utf8' });
  const seconds = (performance.now() - began) / 1000;
  const m = SUMMARY.exec(r.stderr ?? '');
  if (r.status !== 0 || !m) throw new Error(`robots classify exited with ${r.status}: ${(r.stderr ?? r.error?.message ?? '').trim().split('\n').pop()}`);
  const urls = Number(m[1].replaceAll(',', ''));
  const indexed = INDEXED.exec(r.stderr);
  const peak = /^peak-kib (\d+)$/m.exec(r.stderr);
  return {
    urls,
    own: urls / Number(m[2]),
    wall: urls / seconds,
    ...(indexed ? { indexMiBs: Number(indexed[1]) / Math.max(Number(indexed[2]), 1e-3) } : {}),
    ...(peak ? { peakMiB: Number(peak[1]) / 1024 } : {}),
  };
}
