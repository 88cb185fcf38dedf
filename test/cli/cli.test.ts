// The `robots` command, run as a subprocess: classify (order, threads, stdin,
// formats, blank lines, streaming limits), check, explain, lint, and every
// user mistake answered by one line and exit code 2.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from '../../dist/index.js';
import { CANNOT_RUN_AS_ANOTHER_USER } from '../helpers/cli-for-anyone.js';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';

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

  it('writes one verdict line per URL, in input order, from a file and from stdin', async () => {
    const input = file('urls.txt', urls.join('\n') + '\n');
    const fromFile = await robots(['classify', '--robots', SHOP, '--agent', 'Googlebot', input]);
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout).toBe(expected(readFileSync(SHOP), urls));
    const fromStdin = await robots(['classify', '--robots', SHOP, '--agent', 'Googlebot'], urls.join('\n'));
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect((await robots(['classify', '--robots', SHOP, '-'], urls.join('\n'))).stdout).toBe(fromFile.stdout);
    expect(fromFile.stderr).toMatch(/^robots classify: 9 URLs, 1 host, 4 allowed, 5 disallowed in [\d.]+ s \([\d,]+ URLs\/s\)\n$/);
  });

  it('skips blank lines, trims surrounding whitespace and takes CRLF input', async () => {
    const r = await robots(['classify', '--robots', SHOP, '-q'], '\n  https://shop.example/cart  \r\n\r\n\t\n/search\r\n');
    expect(r.stdout).toBe('disallowed\t2\thttps://shop.example/cart\ndisallowed\t4\t/search\n');
    expect(r.stderr).toBe('');
  });

  it('follows the profile and merges repeated or comma-separated agents', async () => {
    const u = ['https://shop.example/%63art', 'https://shop.example/robots.txt'];
    const body = 'User-agent: *\nDisallow: /cart\nDisallow: /robots.txt\nUser-agent: Bingbot\nDisallow: /\n';
    const f = file('profile.txt', body);
    expect((await robots(['classify', '--robots', f, '--profile', 'google', '-q'], u.join('\n'))).stdout).toBe(expected(body, u, 'Googlebot', 'google'));
    expect((await robots(['classify', '--robots', f, '--profile', 'rfc', '-q'], u.join('\n'))).stdout).toBe(expected(body, u, 'Googlebot', 'rfc'));
    const merged = await robots(['classify', '--robots', f, '--agent', 'Foo,Bingbot', '--agent', 'Bar', '-q'], 'https://shop.example/x');
    expect(merged.stdout).toBe('disallowed\t5\thttps://shop.example/x\n');
  });

  it('writes JSON lines, escaping what JSON needs and replacing invalid UTF-8', async () => {
    const input = Buffer.concat([Buffer.from('https://shop.example/cart"\\\x01\n'), Buffer.from([0x2f, 0xff, 0x0a]), Buffer.from('/é\n')]);
    const r = await robots(['classify', '--robots', SHOP, '--format', 'jsonl', '-q'], input);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    // With what the robots.txt was (ok, missing or unreachable) and the deciding rule's text.
    expect(lines).toEqual([
      { url: 'https://shop.example/cart"\\%01', robots: 'ok', allowed: false, line: 2, rule: 'Disallow: /cart' }, // (a control as TSV writes it: see cli-url-echo)
      { url: '/\ufffd', robots: 'ok', allowed: true, line: 0, rule: null },
      { url: '/é', robots: 'ok', allowed: true, line: 0, rule: null },
    ]);
  });

  it('keeps input order across many blocks with 1 and 2 threads, and writes --out only when complete', async () => {
    // ~9 MB: several 1 MiB blocks in flight at once over two threads.
    const many = Array.from({ length: 200_000 }, (_, i) => `https://shop.example/${i % 7 === 0 ? 'cart' : 'p'}/${i}${i % 11 === 0 ? '.pdf' : ''}`);
    const input = file('many.txt', many.join('\n'));
    const want = expected(readFileSync(SHOP), many);
    for (const threads of ['1', '2']) {
      const out = path.join(dir, `many-${threads}.tsv`);
      const r = await robots(['classify', '--robots', SHOP, '--threads', threads, '--out', out, input]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
      expect(readFileSync(out, 'utf8')).toBe(want);
      expect(r.stderr).toMatch(/200,000 URLs/);
    }
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
    // To a pipe (stdout), where the threads write in turn themselves.
    const piped = await robots(['classify', '--robots', SHOP, '--threads', '2', input]);
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(want);
  });

  it('stops quietly when the reader of stdout goes away (| head), with 1 and 2 threads', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => `https://shop.example/p/${i}`);
    const input = file('head.txt', many.join('\n'));
    for (const threads of ['1', '2']) {
      const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" classify --robots "${SHOP}" --threads ${threads} "${input}" | head -n 2; echo "exit \${PIPESTATUS[0]}" >&2`], {
        encoding: 'utf8',
      });
      expect(r.stdout).toBe('allowed\t0\thttps://shop.example/p/0\nallowed\t0\thttps://shop.example/p/1\n');
      expect(r.stderr).toMatch(/exit 0\n$/);
      expect(r.stderr).not.toMatch(/error|\n\s+at /i);
    }
  });

  it('looks each host up in --robots-dir (case-insensitive, no port, user info ignored); no file: allowed', async () => {
    const u = [
      'https://shop.example/cart', 'HTTPS://SHOP.EXAMPLE:8443/cart', 'https://user:pw@news.example/private/x',
      'https://news.example/cart', 'https://other.example/cart', '//news.example/private', '/private', 'https://../private',
    ];
    const r = await robots(['classify', '--robots-dir', robotsDir, '--threads', '2'], u.join('\n'));
    expect(r.stdout).toBe([
      'disallowed\t2\thttps://shop.example/cart', 'disallowed\t2\tHTTPS://SHOP.EXAMPLE:8443/cart',
      'disallowed\t2\thttps://user:pw@news.example/private/x', 'allowed\t0\thttps://news.example/cart',
      'allowed\t0\thttps://other.example/cart', 'disallowed\t2\t//news.example/private', 'allowed\t0\t/private',
      'allowed\t0\thttps://../private', '',
    ].join('\n'));
    expect(r.stderr).toMatch(/8 URLs, 4 hosts, 4 allowed, 4 disallowed/);
  });

  it('keeps a byte bound on the host cache and still gives the same verdicts', async () => {
    const hostsDir = path.join(dir, 'hosts');
    mkdirSync(hostsDir);
    const u: string[] = [];
    for (let h = 0; h < 300; h++) {
      // (100 rules, 5.5 KiB a matcher, 1.6 MiB for all: a matcher keeps its rules, not the file, so comments would weigh nothing)
      writeFileSync(path.join(hostsDir, `h${h}.example`), `User-agent: *\nDisallow: /h${h}/\n${Array.from({ length: 100 }, (_, k) => `Disallow: /h${h}/kept-${k}/\n`).join('')}`);
      const j = (h * 7) % 300; // hosts in an order that defeats a small LRU
      u.push(`https://h${j}.example/h${j}/x`, `https://h${j}.example/h${(j + 1) % 300}/x`);
    }
    const roomy = await robots(['classify', '--robots-dir', hostsDir, '--threads', '1'], u.join('\n'));
    expect(roomy.stderr).toMatch(/600 URLs, 300 hosts, 300 allowed, 300 disallowed .*host cache: 300 loads, 0 evictions/);
    const small = await robots(['classify', '--robots-dir', hostsDir, '--threads', '1', '--cache-mb', '1'], [...u, ...u].join('\n'));
    expect(small.status).toBe(0);
    expect(small.stdout).toBe(roomy.stdout + roomy.stdout);
    const [, loads, evictions] = /host cache: (\d+) loads, (\d+) evictions/.exec(small.stderr)!.map(Number);
    expect(evictions).toBeGreaterThan(0);
    expect(loads).toBeGreaterThan(300);
  });

  it.skipIf(!existsSync('/usr/bin/time'))('streams: peak memory stays bounded on 264 MB read from a pipe', () => {
    // 6 million lines made on the fly; a process that held them would need well over 264 MB.
    const generate = `const s='https://shop.example/cart/some/longer/path/'.padEnd(44,'x')+'\\n';const chunk=s.repeat(10000);let n=0;` +
      `const w=()=>{while(n<600){n++;if(!process.stdout.write(chunk)){process.stdout.once('drain',w);return}}};w()`;
    const r = spawnSync('sh', ['-c', `"${process.execPath}" -e "${generate}" | /usr/bin/time -f 'maxrss %M' "${process.execPath}" "${CLI}" classify --robots "${SHOP}" --threads 1 --out /dev/null`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/6,000,000 URLs/);
    const kib = Number(/maxrss (\d+)/.exec(r.stderr)![1]);
    expect(kib).toBeLessThan(128 * 1024); // Node itself takes ~45 MB
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true); // written, not replaced by a file
  });

  it('refuses a line longer than 16 MiB instead of buffering it', async () => {
    const r = await robots(['classify', '--robots', SHOP, '-q'], 'x'.repeat(17 << 20));
    expectUsageError(r, /longer than 16777216 octets/);
    // From a file, the threads read ranges of it themselves: the same refusal.
    const long = file('long-line.txt', `https://a.example/\n${'x'.repeat(17 << 20)}\nhttps://b.example/\n`);
    expectUsageError(await robots(['classify', '--robots', SHOP, '-q', '--threads', '2', long]), /longer than 16777216 octets/);
  });
});

describe('robots classify: user mistakes get one line and exit 2, and no output file', () => {
  const urls = file('few.txt', 'https://shop.example/cart\n');
  const out = path.join(dir, 'never.tsv');
  const cases: [string, string[], RegExp][] = [
    ['missing robots file', ['--robots', path.join(dir, 'nope.txt'), urls], /cannot read robots file .*nope\.txt: no such file or directory/],
    ['robots file that is a directory', ['--robots', robotsDir, urls], /cannot read robots file .*: is a directory/],
    ['missing robots directory', ['--robots-dir', path.join(dir, 'nodir'), urls], /cannot read robots directory .*nodir: no such file/],
    ['robots directory that is a file', ['--robots-dir', SHOP, urls], /is not a directory/],
    ['neither --robots nor --robots-dir', [urls], /give one of --robots FILE .*, --robots-dir DIR .*, --robots-warc FILE .* or --robots-index DIR/],
    ['both --robots and --robots-dir', ['--robots', SHOP, '--robots-dir', robotsDir, urls], /give one of --robots FILE/],
    ['unknown flag', ['--robots', SHOP, '--thread', '2', urls], /unknown option '--thread'.*\(Did you mean --threads\?\)/],
    ['--threads 0', ['--robots', SHOP, '--threads', '0', urls], /--threads must be a whole number from 1 to 256, got "0"/],
    ['--threads abc', ['--robots', SHOP, '--threads', 'abc', urls], /--threads must be a whole number/],
    ['--threads 1.5', ['--robots', SHOP, '--threads', '1.5', urls], /--threads must be a whole number/],
    ['agent that is not a product token', ['--robots', SHOP, '--agent', 'Googlebot/2.1', urls], /invalid agent "Googlebot\/2\.1"/],
    ['empty agent', ['--robots', SHOP, '--agent', ' , ', urls], /--agent needs a crawler name/],
    ['unknown profile', ['--robots', SHOP, '--profile', 'bing', urls], /--profile must be rfc or google/],
    ['unknown format', ['--robots', SHOP, '--format', 'csv', urls], /--format must be tsv or jsonl/],
    ['--max-bytes below the RFC minimum', ['--robots', SHOP, '--max-bytes', '1000', urls], /--max-bytes must be at least 512000/],
    ['--cache-mb 0', ['--robots-dir', robotsDir, '--cache-mb', '0', urls], /--cache-mb must be a number of MiB/],
    ['missing URL file', ['--robots', SHOP, path.join(dir, 'nourls.txt')], /cannot read URL file .*nourls\.txt: no such file/],
    ['URL file that is a directory', ['--robots', SHOP, dir], /cannot read URL file .*: is a directory/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      expectUsageError(await robots(['classify', ...args, '--out', out]), message);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('output path not writable', async () => {
    expectUsageError(await robots(['classify', '--robots', SHOP, '--out', path.join(dir, 'no', 'such', 'dir.tsv'), urls]), /cannot write .*dir\.tsv: no such directory .*no\/such$/m);
    expectUsageError(await robots(['classify', '--robots', SHOP, '--out', dir, urls]), /cannot write .*: (is a directory|no such file)/);
  });

  it.skipIf(!existsSync('/usr/bin/mkfifo'))('--out to a pipe (or a device) writes it as it is, never a file in its place', async () => {
    const fifo = path.join(dir, 'out.fifo');
    const received = path.join(dir, 'received.tsv');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const threads of ['1', '2']) {
      // (timeout: the reader would wait for ever if the pipe were replaced.)
      const script = `timeout 20 cat "${fifo}" > "${received}" & "${process.execPath}" "${CLI}" classify --robots "${SHOP}" --threads ${threads} -q --out "${fifo}" "${urls}"; s=$?; wait; exit $s`;
      const r = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).toBe(0);
      expect(readFileSync(received, 'utf8')).toBe((await robots(['classify', '--robots', SHOP, '-q', urls])).stdout);
      expect(statSync(fifo).isFIFO()).toBe(true);
      expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
    }
  });

  /** The warning for an unreadable host file. */
  const unreadable = (file: string, why: string) => `robots: warning: cannot read ${file}: ${why}; its URLs are disallowed (unreachable, RFC 9309 2.3.1.3)`;

  it('a host file that cannot be read: its URLs are disallowed (unreachable), one warning, a count, and the run goes on', async () => {
    const broken = path.join(dir, 'broken');
    mkdirSync(path.join(broken, 'bad.example'), { recursive: true }); // a directory where a robots.txt should be
    writeFileSync(path.join(broken, 'good.example'), 'User-agent: *\nDisallow: /private\n');
    const many = Array.from({ length: 100_000 }, (_, i) => `https://good.example/${i}`);
    const input = file('half.txt', [...many, 'https://bad.example/x', 'https://bad.example/y', 'https://good.example/private'].join('\n'));
    for (const threads of ['1', '2']) {
      const r = await robots(['classify', '--robots-dir', broken, '--threads', threads, '--out', out, input]);
      expect(r.status).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l.startsWith('robots: warning:'));
      expect(warnings).toEqual([unreadable(path.join(broken, 'bad.example'), 'is a directory')]);
      expect(r.stderr).toMatch(/; 1 host file could not be read \(their URLs disallowed\)\nrobots classify: URLs by their host.s robots.txt: 100,001 ok, 0 unavailable \(all allowed\), 2 unreachable/);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(100_003);
      expect(lines.slice(-3)).toEqual(['disallowed\t0\thttps://bad.example/x', 'disallowed\t0\thttps://bad.example/y', 'disallowed\t2\thttps://good.example/private']);
      rmSync(out);
    }
  });

  it('a host file that is a FIFO, a device or a loop of symbolic links is unreachable too: the run neither waits on it nor reads it for ever', async () => {
    const odd = path.join(dir, 'odd');
    mkdirSync(odd);
    const fifo = spawnSync('mkfifo', [path.join(odd, 'fifo.example')]).status === 0;
    symlinkSync('/dev/zero', path.join(odd, 'zero.example'));
    symlinkSync('loop.example', path.join(odd, 'loop.example'));
    const hosts = [...(fifo ? ['fifo.example'] : []), 'zero.example', 'loop.example'];
    const input = file('odd.txt', hosts.map((h) => `https://${h}/a\n`).join(''));
    for (const threads of ['1', '2']) {
      const r = await robots(['classify', '--robots-dir', odd, '--threads', threads, input]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(hosts.map((h) => `disallowed\t0\thttps://${h}/a\n`).join(''));
      const whys: Record<string, string> = { 'fifo.example': 'not a regular file', 'zero.example': 'not a regular file', 'loop.example': 'too many levels of symbolic links' };
      expect(r.stderr.split('\n').filter((l) => l.startsWith('robots: warning:'))).toEqual(hosts.map((h) => unreadable(path.join(odd, h), whys[h])));
    }
  });

  it.skipIf(process.getuid === undefined)('a host file without read permission is unreachable (root reads anything: as root, run as nobody)', async (ctx) => {
    const asRoot = process.getuid!() === 0;
    if (asRoot && CANNOT_RUN_AS_ANOTHER_USER !== undefined) ctx.skip(`nobody could not run the command: ${CANNOT_RUN_AS_ANOTHER_USER}`);
    const open = mkdtempSync(path.join(tmpdir(), 'robots-perm-'));
    try {
      chmodSync(open, 0o755); // nobody must get to its files
      const hosts = path.join(open, 'robots');
      mkdirSync(hosts, { mode: 0o755 });
      writeFileSync(path.join(hosts, 'secret.example'), 'User-agent: *\nAllow: /\n', { mode: 0o000 });
      writeFileSync(path.join(hosts, 'open.example'), 'User-agent: *\nDisallow: /p\n', { mode: 0o644 });
      const input = path.join(open, 'urls.txt');
      writeFileSync(input, 'https://secret.example/a\nhttps://open.example/p\n', { mode: 0o644 });
      const r = await robots(['classify', '--robots-dir', hosts, '--threads', '1', input], undefined, asRoot ? { uid: 65534 } : {});
      expect(r.stderr.split('\n').filter((l) => l.startsWith('robots: warning:'))).toEqual([unreadable(path.join(hosts, 'secret.example'), 'permission denied')]);
      expect(r.stdout).toBe('disallowed\t0\thttps://secret.example/a\ndisallowed\t2\thttps://open.example/p\n');
      expect(r.status).toBe(0);
    } finally {
      rmSync(open, { recursive: true, force: true });
    }
  });

  it('--strict-robots-dir: a host file that cannot be read stops the run and leaves no file', async () => {
    const broken = path.join(dir, 'broken');
    const input = path.join(dir, 'half.txt');
    for (const threads of ['1', '2']) {
      const r = await robots(['classify', '--robots-dir', broken, '--strict-robots-dir', '--threads', threads, '--out', out, input]);
      expectUsageError(r, /cannot read .*bad\.example: is a directory; nothing was written to .*never\.tsv/);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
    }
    const toStdout = await robots(['classify', '--robots-dir', broken, '--strict-robots-dir', '--threads', '1', input]);
    expect(toStdout.status).toBe(2);
    expect(toStdout.stderr).toMatch(/is a directory; the output above is incomplete\n$/);
  });
});

describe('robots check, explain, lint, bench, help', () => {
  it('check: a verdict per URL with line and rule; exit 0 all allowed, 1 any disallowed, 2 usage', async () => {
    const ok = await robots(['check', SHOP, 'Googlebot', 'https://shop.example/', 'https://shop.example/cart/help']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe('allowed\t0\thttps://shop.example/\t(no rule matched)\nallowed\t3\thttps://shop.example/cart/help\tAllow: /cart/help\n');
    const some = await robots(['check', SHOP, 'Googlebot', 'https://shop.example/', 'https://shop.example/x.pdf']);
    expect(some.status).toBe(1);
    expect(some.stdout).toContain('disallowed\t5\thttps://shop.example/x.pdf\tDisallow: /*.pdf$\n');
    expect((await robots(['check', SHOP, 'Bingbot', '/'], undefined)).status).toBe(1);
    expect((await robots(['check', '-', 'Googlebot', '/cart'], 'User-agent: *\nDisallow: /cart\n')).status).toBe(1);
    expectUsageError(await robots(['check', SHOP, 'Googlebot']), /missing required argument 'url'/);
    expectUsageError(await robots(['check', path.join(dir, 'nope'), 'Googlebot', '/']), /cannot read robots file/);
    expectUsageError(await robots(['check', SHOP, 'Google bot', '/']), /invalid agent "Google bot"/);
    expect((await robots(['check', SHOP, 'Google bot', '/', '--profile', 'google'])).status).toBe(0);
  });

  it('explain: the group, each matching rule with its length, the decision and why', async () => {
    const longest = await robots(['explain', SHOP, 'Googlebot', 'https://shop.example/cart/help?x']);
    expect(longest.status).toBe(0);
    expect(longest.stdout).toContain('Path:     /cart/help?x');
    expect(longest.stdout).toContain('no group names Googlebot; the "User-agent: *" group at line 1 applies.');
    expect(longest.stdout).toContain('  line 2: Disallow: /cart  length 5\n  line 3: Allow: /cart/help  length 10\n');
    expect(longest.stdout).toContain('Verdict:  ALLOWED. Line 3 (Allow: /cart/help) decides: the longest matching rule wins (length 10).');

    const tie = file('tie.txt', 'User-agent: googlebot\nDisallow: /page\nAllow: /page\n\nUser-agent: *\nDisallow: /\n');
    const t = await robots(['explain', tie, 'Googlebot', '/page']);
    expect(t.stdout).toContain('the group for Googlebot at line 1 applies; "User-agent: *" groups are then ignored.');
    expect(t.stdout).toContain('Verdict:  ALLOWED. Line 3 (Allow: /page) decides: an allow and a disallow match with the same length (5), and on a tie the allow wins.');

    const none = await robots(['explain', SHOP, 'Googlebot', '/about']);
    expect(none.stdout).toContain("Rules:    none of the group's rules matches this path.");
    expect(none.stdout).toContain('Verdict:  ALLOWED. No rule matches');

    const bing = await robots(['explain', SHOP, 'Bingbot', '/x']);
    expect(bing.status).toBe(1);
    expect(bing.stdout).toContain('Verdict:  DISALLOWED. Line 8 (Disallow: /) is the only rule that matches.');
    expectUsageError(await robots(['explain', SHOP, 'Googlebot']), /missing required argument 'url'/);
  });

  it('lint: diagnostics with line numbers, sitemaps, crawl-delays; exit 1 on errors', async () => {
    const clean = await robots(['lint', SHOP]);
    expect(clean.status).toBe(0);
    expect(clean.stdout).toBe('sitemap: https://shop.example/sitemap.xml\ncrawl-delay: 5 s for user-agent bingbot (line 7)\n0 errors, 0 warnings\n');
    const messy = file('messy.txt', 'Disallow: /early\nUser-agent: *\nDissallow: /typo\nFoo: bar\nthis is not a rule at all\nCrawl-delay: soon\n');
    const r = await robots(['lint', messy]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${messy}:1: error: disallow before any user-agent line, ignored [rule-outside-group]`);
    expect(r.stdout).toContain(`${messy}:3: warning: "Dissallow" accepted as disallow [typo]`);
    expect(r.stdout).toMatch(new RegExp(`${messy}:4: warning: unknown key "Foo", ignored \\[unknown-key\\]`));
    expect(r.stdout).toMatch(/:5: error: .*\[invalid-line\]/);
    expect(r.stdout).toMatch(/:6: error: crawl-delay "soon" is not a number of seconds, ignored \[invalid-crawl-delay\]/);
    expect(r.stdout).toMatch(/3 errors, 2 warnings\n$/);
    expectUsageError(await robots(['lint', path.join(dir, 'nope')]), /cannot read robots file/);
  });

  // Every installed engine measured (--quick): 6.4 s on 2 cores loaded by other runs; 60 s for a margin.
  it('bench: every installed engine on the user\'s file and URLs, a row each with the ratio to robots-parser', async () => {
    const urls = file('bench-urls.txt', ['https://shop.example/', 'https://shop.example/cart/x', '', 'https://shop.example/a.pdf'].join('\n'));
    const r = await robots(['bench', SHOP, urls, '--quick', '--profile', 'google', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Your robots\.txt \[user\]: .*shop\.txt \(\d+ octets\), 3 URLs/);
    const row = (label: string) => new RegExp(`^${label} +[\\d.]+[kM]? +.*×`, 'm');
    for (const label of ['robots-wasm google', 'robots-wasm google checkMany', 'robots-parser', 'robots-txt-guard']) expect(r.stdout).toMatch(row(label));
    expect(r.stdout).not.toMatch(/robots-wasm rfc/);
    expect(r.stdout).toMatch(/^robots-parser +[\d.]+[kM]? .* 1\.00× *$/m);

    expectUsageError(await robots(['bench', SHOP]), /missing required argument 'urls'/);
    expectUsageError(await robots(['bench', path.join(dir, 'nope'), urls]), /cannot read robots file/);
    expectUsageError(await robots(['bench', SHOP, path.join(dir, 'nope')]), /cannot read URL file .*nope: no such file/);
    expectUsageError(await robots(['bench', SHOP, file('blank.txt', '\n \n')]), /no URLs in .*blank\.txt/);
    expectUsageError(await robots(['bench', SHOP, urls, '--agent', 'Google bot']), /invalid agent "Google bot"/);
    expectUsageError(await robots(['bench', SHOP, urls, '--profile', 'bing']), /--profile must be rfc or google/);
    expectUsageError(await robots(['bench', '-', '-']), /cannot both be stdin/);
  }, 60_000);

  it('--help for each command, --version, and unknown commands', async () => {
    for (const cmd of ['classify', 'check', 'explain', 'lint', 'bench']) {
      const r = await robots([cmd, '--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: robots ${cmd} `));
    }
    expect((await robots(['--help'])).stdout).toMatch(/Commands:[\s\S]*classify[\s\S]*check[\s\S]*explain[\s\S]*lint[\s\S]*bench/);
    const v = await robots(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    expectUsageError(await robots(['clasify']), /unknown command 'clasify'/);
  });
});

describe('renamed flags and format names (docs/glossary.md): the old spellings still work', () => {
  const big = () => file('big.txt', `User-agent: *\nDisallow: /a\n${'#'.repeat(600_000)}\nDisallow: /b\n`);

  // Twelve runs of the command, independent: started at once, as a busy machine's cores can take them.
  it('--max-octets, and --max-bytes its deprecated old name: the same limit; both given must agree', async () => {
    const body = big();
    const check = (...flags: string[]) => robots(['check', body, 'FooBot', '/b', ...flags]);
    const [plain, octets, bytes, both, disagree, lowBytes, lowOctets, help, ...perFlag] = await Promise.all([
      check(),
      check('--max-octets', '700000'),
      check('--max-bytes', '700000'),
      check('--max-octets', '700000', '--max-bytes', '700000'),
      check('--max-octets', '700000', '--max-bytes', 'Infinity'),
      check('--max-bytes', '1000'),
      check('--max-octets', '1000'),
      robots(['check', '--help']),
      ...['--max-octets', '--max-bytes'].flatMap((flag) => [
        robots(['lint', body, flag, 'Infinity', '--format', 'json']),
        robots(['classify', '--robots', body, flag, '700000', '-q'], '/b\n'),
      ]),
    ]);
    // The default cuts the body before `Disallow: /b`; 700,000 octets read it whole.
    expect(plain.status).toBe(0);
    expect(octets.status).toBe(1);
    expect(bytes.status).toBe(1);
    expect(both.status).toBe(1);
    expectUsageError(disagree, /--max-bytes is the deprecated name of --max-octets/);
    expectUsageError(lowBytes, /--max-bytes must be at least 512000/);
    expectUsageError(lowOctets, /--max-octets must be at least 512000/);
    for (let i = 0; i < perFlag.length; i += 2) {
      const [lint, classify] = perFlag.slice(i, i + 2);
      expect(JSON.parse(lint.stdout).findings.some((f: { code: string }) => f.code === 'size-limit')).toBe(false);
      expect(classify.stdout).toBe('disallowed\t4\t/b\n');
    }
    expect(help.stdout).toMatch(/--max-octets <n>[\s\S]*--max-bytes <n> +deprecated: the old name of --max-octets/);
  });

  // Thirteen runs of the command, independent: started at once, as a busy machine's cores can take them.
  it('--format: each name the output fits gives the same output (text and tsv, json and jsonl where one object is one line)', async () => {
    const args = ['check', SHOP, 'Googlebot', '/', '/x.pdf'];
    const explain = ['explain', SHOP, 'Googlebot', '/cart'];
    const urls = '/\n/cart\n';
    const classify = (...flags: string[]) => robots(['classify', '--robots', SHOP, '-q', ...flags], urls);
    const [text, asText, asTsv, checkJsonl, json, jsonl, tsv, classifyTsv, classifyText, classifyJsonl, classifyJson, lintJsonl, fetchJsonl] = await Promise.all([
      robots(args),
      robots([...args, '--format', 'text']),
      robots([...args, '--format', 'tsv']),
      robots([...args, '--format', 'jsonl']),
      robots([...explain, '--format', 'json']),
      robots([...explain, '--format', 'jsonl']),
      classify(),
      classify('--format', 'tsv'),
      classify('--format', 'text'),
      classify('--format', 'jsonl'),
      classify('--format', 'json'),
      robots(['lint', SHOP, '--format', 'jsonl']),
      robots(['fetch', 'ftp://x/', '--format', 'jsonl']),
    ]);
    expect(asText.stdout).toBe(text.stdout);
    expect(asTsv.stdout).toBe(text.stdout);
    expectUsageError(checkJsonl, /--format must be text or json \(tsv: the same as text\), got "jsonl"/);

    expect(JSON.parse(json.stdout).allowed).toBe(false);
    expect(jsonl.stdout).toBe(json.stdout);

    expect(tsv.stdout).toBe('allowed\t0\t/\ndisallowed\t2\t/cart\n');
    expect(classifyTsv.stdout).toBe(tsv.stdout);
    expect(classifyText.stdout).toBe(tsv.stdout);
    expect(classifyJsonl.stdout.split('\n')[0]).toMatch(/^\{"url":"\/",/);
    expectUsageError(classifyJson, /--format must be tsv or jsonl \(text: the same as tsv\), or parquet \(a file: --out FILE\), got "json"/);
    expectUsageError(lintJsonl, /--format must be text or json, got "jsonl"/);
    expect(fetchJsonl.stderr).toMatch(/fetch takes an http or https URL/);
  });

  it('hex case in classify output (assembly/base/hex.ts): a URL control as %XX upper case, a rule text control as \\u00xx lower case as JSON.stringify writes', async () => {
    const robotsFile = file('controls.txt', 'User-agent: *\nDisallow: /a\x1bb\n');
    const r = await robots(['classify', '--robots', robotsFile, '--format', 'jsonl', '-q'], '/a\x1bb\n');
    expect(r.stdout).toBe(`{"url":"/a%1Bb","robots":"ok","allowed":false,"line":2,"rule":${JSON.stringify('Disallow: /a\x1bb')}}\n`);
    expect(r.stdout).toContain('\\u001b');
  });
});
