// The bench's measuring process forks no child after it starts (a fork makes its
// next passes fault page by page: bench/spawner.mjs): every driver and child
// process of the workloads is run by the spawner, a process of its own.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { driverVerdicts } from '../../bench/peers/external.mjs';
import { run, spawnerPid } from '../../bench/spawner.mjs';

/** A driver of the --verdicts protocol that gives, as each probe's line, the id of the process that started it. */
const FAKE_DRIVER = `
const [, , mode, , tsv, agent] = process.argv;
const rows = require('node:fs').readFileSync(tsv, 'utf8').trim().split('\\n').map((l) => l.split('\\t'));
process.stdout.write(rows.map(([host, url]) => [agent, host, url, 'allowed', String(process.ppid)].join('\\t') + '\\n').join(''));
`;

describe('the bench spawner', () => {
  it("runs a driver's --verdicts from its own process, not the measuring one", { timeout: 60_000 /* node processes on a loaded machine */ }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spawner-test-'));
    const driver = path.join(dir, 'driver.cjs');
    writeFileSync(driver, FAKE_DRIVER);
    const got = await driverVerdicts([process.execPath, driver], [['a.example', 'https://a.example/x'], ['b.example', 'https://b.example/y']], 'Googlebot', dir);
    expect(got).toHaveLength(2);
    for (const v of got) {
      expect(v.allowed).toBe(true);
      expect(v.line).not.toBe(process.pid);
      expect(v.line).toBe(spawnerPid());
    }
  });

  it("gives a failed child's exit code and output as execFile does", { timeout: 60_000 }, async () => {
    const ok = await run(process.execPath, ['-e', 'process.stdout.write("out"); process.stderr.write("err")']);
    expect(ok).toEqual({ stdout: 'out', stderr: 'err' });
    await expect(run(process.execPath, ['-e', 'process.stdout.write("partial"); process.exit(3)'])).rejects.toMatchObject({ code: 3, stdout: 'partial' });
  });
});
