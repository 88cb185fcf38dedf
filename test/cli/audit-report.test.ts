// robots audit report's command line (the built command): its options after
// `report` are its own (audit has an --out too), the page on stdout or in a
// file, lines from stdin; what is not a site line left out and named; and the
// user's mistakes, each one line and exit 2. The page itself, in a browser:
// test/web/audit-report.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectUsageError, robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-report-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const site = (name: string, category: string | null) =>
  JSON.stringify({ site: name, status: category === null ? 'missing' : 'ok', crawlers: [{ crawler: 'GPTBot', category, exact: true }], contentSignals: [], licenses: [], llmPolicies: [] });
const SITES = [site('a.example', 'all'), site('b.example', 'none'), site('c.example', null)].join('\n') + '\n';

describe('robots audit report', () => {
  it('writes the page to --out (report\'s option, not audit\'s) and the tables to --tsv-dir', async () => {
    const input = path.join(dir, 'sites.jsonl');
    writeFileSync(input, SITES);
    const out = path.join(dir, 'report.html');
    const tsv = path.join(dir, 'tsv');
    const r = await robots(['audit', 'report', input, '--out', out, '--tsv-dir', tsv]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`robots audit report: 3 site lines, 1 crawler: ${out} and 3 TSV files in ${tsv}\n`);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!DOCTYPE html>[\s\S]*<svg class="chart stacked" id="crawlers-chart"[\s\S]*<\/html>\n$/);
    expect(readFileSync(path.join(tsv, 'crawlers.tsv'), 'utf8')).toBe(
      'crawler\tsites\tall\tpart\tnone\tunknown\tall_pct\tpart_pct\tnone_pct\tunknown_pct\tinexact\n' +
      'GPTBot\t3\t1\t0\t1\t1\t33.33\t0.00\t33.33\t33.33\t0\n');
  });

  it('reads stdin, writes the page to stdout; a line past 16 MiB and lines not of audit are left out and named', async () => {
    const long = `{"site":"${'x'.repeat(17 << 20)}"}`;
    const r = await robots(['audit', 'report', '--title', 'Mine'], `${SITES}${long}\nsite\tstatus\n`);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^<!DOCTYPE html>[\s\S]*<title>Mine<\/title>[\s\S]*2 input lines were not a site line of robots audit and are left out/);
    expect(r.stderr).toBe(
      'robots audit report: warning: 2 lines are not a site line of robots audit, left out:\n' +
      'robots audit report: warning:   stdin:4: longer than a site line can be\n' +
      'robots audit report: warning:   stdin:5: a TSV header: the report reads audit\'s JSON lines (--format jsonl)\n' +
      'robots audit report: 3 site lines, 1 crawler: stdout\n');
  });

  it('says in one line what is wrong: no such input, a folder, audit\'s TSV, nothing at all, stdin twice, an output it cannot write', async () => {
    const tsv = path.join(dir, 'sites.tsv');
    writeFileSync(tsv, 'site\tstatus\thttp\tGPTBot\na.example\tok\t\tall\n');
    expectUsageError(await robots(['audit', 'report', path.join(dir, 'nope.jsonl')]), /^robots: audit report: cannot read \S+nope\.jsonl: no such file or directory$/m);
    expectUsageError(await robots(['audit', 'report', dir]), /^robots: audit report: cannot read \S+: is a directory$/m);
    expectUsageError(await robots(['audit', 'report', tsv]),
      /^robots: audit report: no site line in \S+sites\.tsv \(2 bad lines, the first \S+sites\.tsv:1: a TSV header: the report reads audit's JSON lines \(--format jsonl\)\): give the JSON lines of robots audit --format jsonl$/m);
    expectUsageError(await robots(['audit', 'report'], ''), /^robots: audit report: no site line in stdin \(no lines\)/);
    expectUsageError(await robots(['audit', 'report', '-', '-'], SITES), /^robots: audit report: stdin \("-"\) can be read once$/m);
    const out = path.join(dir, 'no-such-folder', 'r.html');
    expectUsageError(await robots(['audit', 'report', '--out', out], SITES), /^robots: audit report: cannot write \S+r\.html: no such file or directory$/m);
    expect(existsSync(path.dirname(out))).toBe(false);
  });
});
