// The command where the world pushes back: a full stdout (/dev/full), an
// output that cannot be created, and the 16 MiB line limit drawn at exactly
// the same octet however the input is read.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reason } from '../../src/cli/errors.js';
import { MAX_LINE_OCTETS } from '../../src/bulk/sources/line-blocks.js';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROBOTS = path.join(dir, 'robots.txt');
writeFileSync(ROBOTS, 'User-agent: *\nDisallow: /a\n');
const URLS = path.join(dir, 'urls.txt');
writeFileSync(URLS, 'http://x/a\nhttp://x/b\n');

describe.skipIf(!existsSync('/dev/full'))('a full stdout (/dev/full): one line, exit 2, in every command', () => {
  afterAll(() => {
    // Never a file in a device's place (an earlier bug did that to /dev/null).
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });
  const cases: [string, string[]][] = [
    ['check', ['check', ROBOTS, 'FooBot', 'http://x/a']],
    ['explain', ['explain', ROBOTS, 'FooBot', 'http://x/a']],
    ['lint', ['lint', ROBOTS]],
    ['classify, 1 thread', ['classify', '--robots', ROBOTS, '--threads', '1', URLS]],
    ['classify, 2 threads', ['classify', '--robots', ROBOTS, '--threads', '2', URLS]],
    ['fetch (nothing listens on port 1: unreachable, and said so)', ['fetch', 'http://127.0.0.1:1/']],
    ['--help', ['--help']],
  ];
  for (const [name, args] of cases) {
    it(name, async () => {
      const r = await robots(args, undefined, { stdout: '/dev/full' });
      expectUsageError(r, /^robots: cannot write the output: no space left on the device/);
    });
  }
  it('a full stderr: nowhere to say so, but the exit code is kept (not 1 for an unhandled error)', async () => {
    expect((await robots(['check', path.join(dir, 'none.txt'), 'FooBot', 'http://x/a'], undefined, { stderr: '/dev/full' })).status).toBe(2);
    expect((await robots(['classify', '--robots', ROBOTS, URLS], undefined, { stderr: '/dev/full' })).status).toBe(0);
  });
  it('classify --out /dev/full, 1 and 2 threads', async () => {
    for (const threads of ['1', '2']) {
      expectUsageError(await robots(['classify', '--robots', ROBOTS, '--threads', threads, '--out', '/dev/full', URLS]), /cannot write \/dev\/full: no space left on the device/);
    }
  });
});

describe('an output that cannot be created says which file and why', () => {
  it.skipIf(!existsSync('/proc/version'))('--out /proc/version: the temporary file beside it', async () => {
    expectUsageError(await robots(['classify', '--robots', ROBOTS, '--out', '/proc/version', URLS]), /cannot write \/proc\/version: cannot create the temporary file \/proc\/version\.\d+\.partial beside it: no such file or directory/);
  });
  it('a missing directory, and the errors a file system gives, in words', async () => {
    expectUsageError(await robots(['classify', '--robots', ROBOTS, '--out', path.join(dir, 'no', 'out.tsv'), URLS]), /cannot write .*out\.tsv: no such directory .*no$/m);
    expect(reason({ code: 'EROFS', message: 'EROFS: read-only file system, open x.partial' })).toBe('read-only file system');
    expect(reason({ code: 'EDQUOT' })).toBe('disk quota exceeded');
    expect(reason({ code: 'ENOSPC' })).toBe('no space left on the device');
  });
});

describe(`the line limit: ${MAX_LINE_OCTETS} octets before the LF, exactly, however the input is read`, () => {
  const line = (octets: number) => 'http://x/' + 'b'.repeat(octets - 9);
  const atLimit = path.join(dir, 'at-limit.txt');
  const overLimit = path.join(dir, 'over-limit.txt');
  writeFileSync(atLimit, `http://x/a\n${line(MAX_LINE_OCTETS)}\nhttp://x/a\n`);
  writeFileSync(overLimit, `http://x/a\n${line(MAX_LINE_OCTETS + 1)}\nhttp://x/a\n`);
  const TOO_LONG = new RegExp(`an input line is longer than ${MAX_LINE_OCTETS} octets`);
  for (const threads of ['1', '2']) {
    it(`from a file, ${threads} thread(s)`, async () => {
      const ok = await robots(['classify', '--robots', ROBOTS, '--threads', threads, '-q', '--out', path.join(dir, 'o.tsv'), atLimit]);
      expect(ok.status).toBe(0);
      expectUsageError(await robots(['classify', '--robots', ROBOTS, '--threads', threads, '--out', path.join(dir, 'o.tsv'), overLimit]), TOO_LONG);
    });
    it(`from stdin (a pipe), ${threads} thread(s)`, async () => {
      // (A process of its own: a host's run reads its input from a file, test/helpers/cli-host.ts.)
      const pipe = { process: true };
      const ok = await robots(['classify', '--robots', ROBOTS, '--threads', threads, '-q', '--out', path.join(dir, 'o.tsv')], `http://x/a\n${line(MAX_LINE_OCTETS)}\n`, pipe);
      expect(ok.status).toBe(0);
      expectUsageError(await robots(['classify', '--robots', ROBOTS, '--threads', threads, '--out', path.join(dir, 'o.tsv')], `http://x/a\n${line(MAX_LINE_OCTETS + 1)}\n`, pipe), TOO_LONG);
      // The last line, without its LF.
      expectUsageError(await robots(['classify', '--robots', ROBOTS, '--threads', threads, '--out', path.join(dir, 'o.tsv')], line(MAX_LINE_OCTETS + 1), pipe), TOO_LONG);
    });
  }
  it('a CR before the LF counts', async () => {
    expect((await robots(['classify', '--robots', ROBOTS, '-q', '--out', path.join(dir, 'o.tsv')], `${line(MAX_LINE_OCTETS - 1)}\r\n`)).status).toBe(0);
    expectUsageError(await robots(['classify', '--robots', ROBOTS, '--out', path.join(dir, 'o.tsv')], `${line(MAX_LINE_OCTETS)}\r\n`), TOO_LONG);
  });
  it('from a FIFO named as the input (read as a stream, as stdin is)', (ctx) => {
    const fifo = path.join(dir, 'urls.fifo');
    if (spawnSync('mkfifo', [fifo]).status !== 0) ctx.skip(); // (no mkfifo here: nothing to test)
    for (const [input, status] of [[atLimit, 0], [overLimit, 2]] as const) {
      const script = `cat "${input}" > "${fifo}" & "${process.execPath}" "${CLI}" classify --robots "${ROBOTS}" --threads 2 -q --out /dev/null "${fifo}"; s=$?; wait; exit $s`;
      const r = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(status);
      if (status === 2) expect(r.stderr).toMatch(TOO_LONG);
    }
  });
});
