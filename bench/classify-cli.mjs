// Runs the built `robots classify` as a user runs it (a child process, output to
// /dev/null) and reads its own figure from the summary it prints on stderr. Used
// by the end-to-end workloads of workloads/classify.mjs; `robots index` likewise.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
 * `node dist/cli.js COMMAND…` in a child process, under /usr/bin/time when it is
 * there (for the peak resident memory): its stderr, exit status, wall seconds
 * (process start included) and peak MiB.
 * @param {string[]} command
 */
function runCli(command) {
  const began = performance.now();
  const timed = existsSync(TIME);
  const r = timed
    ? spawnSync(TIME, ['-f', 'peak-kib %M', process.execPath, CLI, ...command], { encoding: 'utf8' })
    : spawnSync(process.execPath, [CLI, ...command], { encoding: 'utf8' });
  const seconds = (performance.now() - began) / 1000;
  const peak = /^peak-kib (\d+)$/m.exec(r.stderr ?? '');
  return { status: r.status, stderr: r.stderr ?? r.error?.message ?? '', seconds, ...(peak ? { peakMiB: Number(peak[1]) / 1024 } : {}) };
}

const INDEX_SUMMARY = /^robots index: ([\d,]+) captures .*\(([\d.]+) MiB in ([\d.]+) s, [\d.]+ MiB\/s read; [\d.]+ s with the shards' writing\) written to .* \(([\d.]+) MiB\)/m;

/**
 * One run of `robots index --robots-warc WARC --shards N --out DIR ARGS`: the
 * captures, the WARC's MiB/s by the command's own clock (its summary: the
 * reading pass only; writing the shards comes after it) and by the wall clock
 * (the whole command, process start included), wall seconds, the MiB of shards
 * written, and the peak resident memory (MiB) when /usr/bin/time is there.
 * @param {string} warc
 * @param {number} shards
 * @param {string} out
 * @param {string[]} [args]
 */
export function runIndex(warc, shards, out, args = []) {
  const r = runCli(['index', '--robots-warc', warc, '--shards', String(shards), '--out', out, ...args]);
  const m = INDEX_SUMMARY.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`robots index exited with ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
  const mib = statSync(warc).size / 2 ** 20;
  return {
    captures: Number(m[1].replaceAll(',', '')),
    ownMiBs: Number(m[2]) / Math.max(Number(m[3]), 1e-3),
    wallMiBs: mib / r.seconds,
    seconds: r.seconds,
    outMiB: Number(m[4]),
    ...(r.peakMiB === undefined ? {} : { peakMiB: r.peakMiB }),
  };
}

/**
 * One run of `robots classify ARGS --threads N`: URLs, the command's own URLs/s,
 * wall-clock URLs/s, with --robots-warc the indexing pass's MiB/s, and the
 * peak resident memory (MiB) when /usr/bin/time is there.
 */
export function runClassify(args, threads) {
  const r = runCli(['classify', ...args, '--threads', String(threads), '--out', '/dev/null']);
  const m = SUMMARY.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`robots classify exited with ${r.status}: ${r.stderr.trim().split('\n').pop()}`);
  const urls = Number(m[1].replaceAll(',', ''));
  const indexed = INDEXED.exec(r.stderr);
  return {
    urls,
    own: urls / Number(m[2]),
    wall: urls / r.seconds,
    seconds: r.seconds,
    ...(indexed ? { indexMiBs: Number(indexed[1]) / Math.max(Number(indexed[2]), 1e-3) } : {}),
    ...(r.peakMiB === undefined ? {} : { peakMiB: r.peakMiB }),
  };
}
