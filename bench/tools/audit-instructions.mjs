// robots audit's loop from an index counted in instructions, stage by stage: a
// measure the load of a shared machine does not move (audit-rate.mjs's CPU
// seconds do: at load 10 its rounds' ratios spread over ±5%, more than most
// changes measured). The corpus's robots.txt files captured in a WARC (warcio),
// indexed by `robots index` (the built command), then the loop of audit-rate.mjs
// run under valgrind's cachegrind (`node --predictable --single-threaded
// --no-liftoff`, fixed hash and random seeds, without address space
// randomisation (`setarch -R`): no compiler or GC thread, the core compiled by
// TurboFan alone; two runs of the same then differ by 0.03%, where without the
// seeds and setarch they differed by 2 to 7%), each stage of it alone:
//
//   read     the index read, the sites listed, each site's body resolved
//   lex      and each body through the core's lexer (lexBatches, nothing kept)
//   records  and the audit's reading of it (readAuditRecords: the groups made)
//   full     and the whole record (SiteAuditor.audit, the crawlers given)
//
// A stage's instructions a round are the difference between a run of `--rounds`
// more rounds and a run of `--base` rounds, divided by `--rounds`: the start
// (node, the bundle, the core, the first rounds' compilations) cancels out. A
// stage's own share is its count less the stage before's. With --against DIR
// (another checkout) its src/ is bundled and counted the same way, and the
// ratio of the two printed per stage.
//
//   node bench/tools/audit-instructions.mjs [--stages read,lex,records,full] [--base 4] [--rounds 8] [--against DIR] [--corpus DIR]
//
// Needs valgrind (Debian's package). Instructions are not time (a byte loop of
// the core runs several an instruction cycle, a cache miss of JavaScript none):
// audit-rate.mjs says what a change gives; this says whether it does the work it
// claims to, and where the work is.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditBundle } from './audit-bundle.mjs';
import { against, arg, AUDIT_CRAWLERS, corpus, root } from './audit-tool-options.mjs';
import { corpusIndex } from './corpus-index.mjs';

const stages = arg('--stages', 'read,lex,records,full').split(',');
const base = Number(arg('--base', '4'));
const rounds = Number(arg('--rounds', '8'));
const crawlers = AUDIT_CRAWLERS.join(',');

const setarch = spawnSync('setarch', ['-R', 'true']).status === 0;
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('audit-instructions: valgrind is not installed (apt-get install valgrind)');
  process.exit(2);
}

const dir = mkdtempSync(path.join(tmpdir(), 'audit-instructions-'));
try {
  const { index, hosts } = await corpusIndex(corpus, dir, root, ['ignore', 'ignore', 'ignore']);

  // The loop, one stage of it, over a bundle of a checkout's src/.
  const loop = path.join(dir, 'loop.mjs');
  writeFileSync(loop, `
import { pathToFileURL } from 'node:url';
const [bundle, rounds, stage, index] = process.argv.slice(2);
const m = await import(pathToFileURL(bundle).href);
const crawlers = ${JSON.stringify(crawlers.split(','))};
let n = 0;
for (let r = 0; r < Number(rounds); r++) {
  const read = m.readRobotsIndexes([index], { maxOctets: 512_000 });
  const sites = m.captureSites(read.data);
  const auditor = new m.SiteAuditor({ crawlers, profile: 'rfc', maxOctets: 512_000, convention: 'rfc' });
  for (const s of sites) {
    const found = s.robots();
    if (stage === 'read' || found.kind !== 'ok') continue;
    const body = found.body.length > 512_000 ? found.body.subarray(0, 512_000) : found.body;
    if (stage === 'lex') n += m.lexBatches(body, () => {});
    else if (stage === 'records') n += m.readAuditRecords(body, 'rfc').groups.length;
    else n += auditor.audit(s.site, s.url, found).crawlers.length;
  }
  read.dispose();
}
if (n < 0) console.log(n);
`);
  const bundled = (from, name) => auditBundle(from, dir, name, root);
  const checkouts = [{ name: 'this checkout', bundle: await bundled(root, 'this') }];
  if (against !== undefined) checkouts.unshift({ name: path.resolve(against), bundle: await bundled(path.resolve(against), 'against') });

  /** Instructions of a run of the loop (cachegrind's I refs). */
  const instructions = (bundle, n, stage) =>
    new Promise((resolve, reject) => {
      const command = [
        'valgrind', '--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null',
        process.execPath, '--predictable', '--single-threaded', '--no-liftoff', '--disable-wasm-trap-handler', '--hash-seed=1', '--random-seed=1',
        loop, bundle, String(n), stage, index,
      ];
      const child = spawn(setarch ? 'setarch' : command[0], setarch ? ['-R', ...command] : command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => {
        const m = /I\s+refs:\s+([\d,]+)/.exec(stderr);
        if (status !== 0 || m === null) reject(new Error(`cachegrind failed (${stage}, ${n} rounds): ${stderr.slice(-500)}`));
        else resolve(Number(m[1].replace(/,/g, '')));
      });
    });
  // (The checkouts' runs two at a time: the machine's two cores.)
  const perRound = {};
  for (const stage of stages) {
    for (const n of [base, base + rounds]) {
      const counts = await Promise.all(checkouts.map((c) => instructions(c.bundle, n, stage)));
      checkouts.forEach((c, i) => (((perRound[c.name] ??= {})[stage] ??= {})[n] = counts[i]));
    }
    for (const c of checkouts) perRound[c.name][stage] = (perRound[c.name][stage][base + rounds] - perRound[c.name][stage][base]) / rounds;
  }
  const m = (x) => `${(x / 1e6).toFixed(1)}M`;
  console.log(`robots audit from an index, instructions a round (cachegrind; ${base + rounds} rounds less ${base}, / ${rounds}): ${hosts.length} sites, ${crawlers}, rfc profile`);
  for (const c of checkouts) {
    console.log(`${c.name}:`);
    let before = 0;
    for (const stage of stages) {
      const x = perRound[c.name][stage];
      console.log(`  ${stage.padEnd(8)} ${m(x).padStart(9)} (${Math.round(x / hosts.length).toLocaleString('en')} a site; the stage's own ${m(x - before)})`);
      before = x;
    }
  }
  if (checkouts.length > 1) {
    for (const stage of stages) console.log(`this checkout / ${checkouts[0].name}, ${stage}: ${(perRound['this checkout'][stage] / perRound[checkouts[0].name][stage]).toFixed(3)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
