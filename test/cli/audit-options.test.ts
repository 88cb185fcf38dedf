// robots audit (the built command): --operators read by classify's parser (one
// parser, `@ai` and `all`, the same errors), the progress bar named for audit,
// and each category's proof paths in the JSON lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, robots } from '../helpers/cli-run.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { OPERATORS } from '../../src/data/operators.js';
import type { SiteRecord } from '../../src/bulk/audit/site-audit.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sites = path.join(dir, 'sites');
const records = (jsonl: string) => jsonl.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SiteRecord);

beforeAll(() => {
  mkdirSync(sites);
  const files: Record<string, string | Uint8Array> = {
    'part.example': 'User-agent: *\nDisallow: /private\n',
    'all.example': 'User-agent: *\nDisallow: /\n',
    'none.example': 'User-agent: *\nDisallow:\n',
    'accent.example': 'User-agent: *\nDisallow: /\nAllow: /café$\n',
    'control.example': Buffer.from('User-agent: *\nDisallow: /\nAllow: /a\x01b$\n', 'latin1'),
  };
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(sites, name), body);
});

describe('audit --operators: classify\'s parser', () => {
  it('@ai and all: every operator, in the data\'s order', { timeout: 120_000 }, async () => {
    for (const spelling of ['@ai', 'all', 'openai,@AI']) {
      const r = await robots(['audit', '--robots-dir', sites, '--crawlers', 'GPTBot', '--operators', spelling, '--format', 'jsonl', '-q']);
      expect(r.stderr, spelling).toBe('');
      expect(r.status).toBe(0);
      for (const s of records(r.stdout)) expect(s.operators!.map((o) => o.operator), spelling).toEqual(OPERATORS.map((o) => o.id));
    }
  });

  it('an unknown operator: the same one line as classify\'s, exit 2', { timeout: 120_000 }, async () => {
    const urls = path.join(dir, 'urls.txt');
    writeFileSync(urls, 'https://part.example/\n');
    const classify = await robots(['classify', '--robots-dir', sites, '--operators', 'openai,nobody', urls]);
    const audit = await robots(['audit', '--robots-dir', sites, '--operators', 'openai,nobody']);
    expect([audit.status, classify.status]).toEqual([2, 2]);
    expect(audit.stderr).toMatch(/^robots: --operators: unknown operator "nobody": the operators are openai, [^\n]*\(or @ai for all\)\n$/);
    expect(audit.stderr).toBe(classify.stderr);
  });
});

describe.skipIf(!HAVE_SHARED)('audit\'s progress bar', () => {
  it('says audit and counts sites when stderr is a terminal', { timeout: 300_000 }, async () => {
    // util-linux's script(1): the command on a pseudo-terminal, its output as the terminal got it.
    const out = path.join(dir, 'corpus.tsv');
    const command = [process.execPath, CLI, 'audit', '--robots-dir', path.join(SHARED, 'corpus', 'robots'), '--crawlers', 'GPTBot', '--out', out].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    // (The bar redraws in place: its frames are told apart by their own shape, the terminal's escapes dropped.)
    const frames = [...text.replace(/\x1b(\[[0-9;?]*[A-Za-z]|[78])/g, '').matchAll(/(classify|audit) \[[^\]]*\] \d+% \| [\d,]+ (\S+) \| [\d,]+ (\S+) \| ETA /g)];
    expect(frames.length).toBeGreaterThan(0);
    for (const [frame, label, unit, rate] of frames) expect([label, unit, rate], frame).toEqual(['audit', 'sites', 'sites/s']);
    expect(text).not.toContain('classify');
    expect(readFileSync(out, 'utf8').split('\n').length).toBe(4243);
  });
});

describe('audit\'s proof paths (JSON lines)', () => {
  it.each(['rfc', 'google'])('%s: an allowed and a disallowed path, as a URL carries them', { timeout: 120_000 }, async (profile) => {
    const r = await robots(['audit', '--robots-dir', sites, '--crawlers', 'GPTBot', '--profile', profile, '--format', 'jsonl', '-q']);
    expect(r.status).toBe(0);
    const paths = Object.fromEntries(records(r.stdout).map((s) => {
      const c = s.crawlers[0];
      return [s.site, [c.category, c.allowedPath, c.disallowedPath]];
    }));
    expect(paths).toEqual({
      'part.example': ['part', '/', '/private'],
      'all.example': ['all', undefined, '/'],
      'none.example': ['none', '/', undefined],
      'accent.example': ['part', '/caf%C3%A9', '/'],
      // (rfc escapes a control octet in the rule; google keeps it raw: written %01 all the same.)
      'control.example': ['part', '/a%01b', '/'],
    });
    // The TSV has no such columns.
    const tsv = await robots(['audit', '--robots-dir', sites, '--crawlers', 'GPTBot', '--profile', profile, '-q']);
    expect(tsv.stdout.split('\n')[0]).not.toMatch(/Path/);
  });
});
