// The `robots` command, run as a subprocess: classify (order, threads, stdin,
// formats, blank lines, streaming limits), check, explain, lint, and every
// user mistake answered by one line and exit code 2.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from '../dist/index.js';
import { CLI, expectUsageError, robots } from './cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Uint8Array) => {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
};

const SHOP = file('shop.txt', [
  'User-agent: *',
  'Disallow: /cart',
  'Allow: /cart/help',
  'Disallow: /search',
  'Disallow: /*.pdf$',
  '',
  'User-agent: Bingbot',
  'Disallow: /',
  'Crawl-delay: 5',
  'Sitemap: https://shop.example/sitemap.xml',
].join('\n'));

const robotsDir = path.join(dir, 'robots');
mkdirSync(robotsDir);
writeFileSync(path.join(robotsDir, 'shop.example'), readFileSync(SHOP));
writeFileSync(path.join(robotsDir, 'news.example'), 'User-agent: *\nDisallow: /private\n');

/** What the library says for each URL (the CLI must agree), as TSV lines. */
function expected(body: string | Uint8Array, urls: string[], agent = 'Googlebot', profile: 'rfc' | 'google' = 'rfc'): string {
  const m = parse(body, { profile }).compile(agent);
  return urls.map((u) => {
    const v = m.explain(u);
    return `${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${u}\n`;
  }).join('');
}

describe('robots classify', () => {
  const urls = [
    'https://shop.example/', 'https://shop.example/cart', 'https://shop.example/cart/help', 'https://shop.example/a.pdf',
    'https://shop.example/search?q=x', '/cart/x', 'not a url at all', 'https://shop.example/%63art', 'https://shop.example/ü',
  ];

  it('writes one verdict line per URL, in input order, from a file and from stdin', () => {
    const input = file('urls.txt', urls.join('\n') + '\n');
    const fromFile = robots(['classify', '--robots', SHOP, '--agent', 'Googlebot', input]);
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout).toBe(expected(readFileSync(SHOP), urls));
    const fromStdin = robots(['classify', '--robots', SHOP, '--agent', 'Googlebot'], urls.join('\n'));
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect(robots(['classify', '--robots', SHOP, '-'], urls.join('\n')).stdout).toBe(fromFile.stdout);
    expect(fromFile.stderr).toMatch(/^robots classify: 9 URLs, 1 hosts, 4 allowed, 5 disallowed in [\d.]+ s \([\d,]+ URLs\/s\)\n$/);
  });

  it('skips blank lines, trims surrounding whitespace and takes CRLF input', () => {
    const r = robots(['classify', '--robots', SHOP, '-q'], '\n  https://shop.example/cart  \r\n\r\n\t\n/search\r\n');
    expect(r.stdout).toBe('disallowed\t2\thttps://shop.example/cart\ndisallowed\t4\t/search\n');
    expect(r.stderr).toBe('');
  });

  it('follows the profile and merges repeated or comma-separated agents', () => {
    const u = ['https://shop.example/%63art', 'https://shop.example/robots.txt'];
    const body = 'User-agent: *\nDisallow: /cart\nDisallow: /robots.txt\nUser-agent: Bingbot\nDisallow: /\n';
    const f = file('profile.txt', body);
    expect(robots(['classify', '--robots', f, '--profile', 'google', '-q'], u.join('\n')).stdout).toBe(expected(body, u, 'Googlebot', 'google'));
    expect(robots(['classify', '--robots', f, '--profile', 'rfc', '-q'], u.join('\n')).stdout).toBe(expected(body, u, 'Googlebot', 'rfc'));
    const merged = robots(['classify', '--robots', f, '--agent', 'Foo,Bingbot', '--agent', 'Bar', '-q'], 'https://shop.example/x');
    expect(merged.stdout).toBe('disallowed\t5\thttps://shop.example/x\n');
  });

  it('writes JSON lines, escaping what JSON needs and replacing invalid UTF-8', () => {
    const input = Buffer.concat([Buffer.from('https://shop.example/cart"\\\x01\n'), Buffer.from([0x2f, 0xff, 0x0a]), Buffer.from('/é\n')]);
    const r = robots(['classify', '--robots', SHOP, '--format', 'jsonl', '-q'], input);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { url: 'https://shop.example/cart"\\\x01', allowed: false, line: 2 },
      { url: '/\ufffd', allowed: true, line: 0 },
      { url: '/é', allowed: true, line: 0 },
    ]);
  });

  it('keeps input order across many blocks with 1 and 2 threads, and writes --out only when complete', () => {
    // ~9 MB: several 1 MiB blocks in flight at once over two threads.
    const many = Array.from({ length: 200_000 }, (_, i) => `https://shop.example/${i % 7 === 0 ? 'cart' : 'p'}/${i}${i % 11 === 0 ? '.pdf' : ''}`);
    const input = file('many.txt', many.join('\n'));
    const want = expected(readFileSync(SHOP), many);
    for (const threads of ['1', '2']) {
      const out = path.join(dir, `many-${threads}.tsv`);
      const r = robots(['classify', '--robots', SHOP, '--threads', threads, '--out', out, input]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
      expect(readFileSync(out, 'utf8')).toBe(want);
      expect(r.stderr).toMatch(/200,000 URLs/);
    }
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  it('looks each host up in --robots-dir (case-insensitive, no port, user info ignored); no file: allowed', () => {
    const u = [
      'https://shop.example/cart', 'HTTPS://SHOP.EXAMPLE:8443/cart', 'https://user:pw@news.example/private/x',
      'https://news.example/cart', 'https://other.example/cart', '//news.example/private', '/private', 'https://../private',
    ];
    const r = robots(['classify', '--robots-dir', robotsDir, '--threads', '2'], u.join('\n'));
    expect(r.stdout).toBe([
      'disallowed\t2\thttps://shop.example/cart', 'disallowed\t2\tHTTPS://SHOP.EXAMPLE:8443/cart',
      'disallowed\t2\thttps://user:pw@news.example/private/x', 'allowed\t0\thttps://news.example/cart',
      'allowed\t0\thttps://other.example/cart', 'disallowed\t2\t//news.example/private', 'allowed\t0\t/private',
      'allowed\t0\thttps://../private', '',
    ].join('\n'));
    expect(r.stderr).toMatch(/8 URLs, 4 hosts, 4 allowed, 4 disallowed/);
  });

  it('keeps a byte bound on the host cache and still gives the same verdicts', () => {
    const hostsDir = path.join(dir, 'hosts');
    mkdirSync(hostsDir);
    const u: string[] = [];
    for (let h = 0; h < 300; h++) {
      writeFileSync(path.join(hostsDir, `h${h}.example`), `User-agent: *\nDisallow: /h${h}/\n${'# padding\n'.repeat(1000)}`);
      const j = (h * 7) % 300; // hosts in an order that defeats a small LRU
      u.push(`https://h${j}.example/h${j}/x`, `https://h${j}.example/h${(j + 1) % 300}/x`);
    }
    const roomy = robots(['classify', '--robots-dir', hostsDir, '--threads', '1'], u.join('\n'));
    expect(roomy.stderr).toMatch(/600 URLs, 300 hosts, 300 allowed, 300 disallowed .*host cache: 300 loads, 0 evictions/);
    const small = robots(['classify', '--robots-dir', hostsDir, '--threads', '1', '--cache-mb', '1'], [...u, ...u].join('\n'));
    expect(small.status).toBe(0);
    expect(small.stdout).toBe(roomy.stdout + roomy.stdout);
    const [, loads, evictions] = /host cache: (\d+) loads, (\d+) evictions/.exec(small.stderr)!.map(Number);
    expect(evictions).toBeGreaterThan(0);
    expect(loads).toBeGreaterThan(300);
  });

  it.skipIf(!existsSync('/usr/bin/time'))('streams: peak memory stays bounded on 140 MB read from a pipe', () => {
    // 3 million lines made on the fly; a process that held them would need well over 140 MB.
    const generate = `const s='https://shop.example/cart/some/longer/path/'.padEnd(44,'x')+'\\n';const chunk=s.repeat(10000);let n=0;` +
      `const w=()=>{while(n<300){n++;if(!process.stdout.write(chunk)){process.stdout.once('drain',w);return}}};w()`;
    const r = spawnSync('sh', ['-c', `"${process.execPath}" -e "${generate}" | /usr/bin/time -f 'maxrss %M' "${process.execPath}" "${CLI}" classify --robots "${SHOP}" --threads 1 --out /dev/null`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/3,000,000 URLs/);
    const kib = Number(/maxrss (\d+)/.exec(r.stderr)![1]);
    expect(kib).toBeLessThan(110 * 1024);
  });

  it('refuses a line longer than 16 MiB instead of buffering it', () => {
    const r = robots(['classify', '--robots', SHOP, '-q'], 'x'.repeat(17 << 20));
    expectUsageError(r, /longer than 16777216 octets/);
  });
});
