// The report writer: a results file renders into the Markdown tables and the SVG chart.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderReport, writeReport, newestFullResults } from '../../bench/report.mjs';
import { renderChart, renderEnvelopeChart } from '../../bench/chart.mjs';
import { renderResultsText } from '../../bench/tables.mjs';
import { causeOf, fileFacts } from '../../bench/agreement-causes.mjs';

const results = {
  schema: 1,
  date: '2026-01-02T03:04:05.000Z',
  quick: false,
  durationSeconds: 321,
  machine: { hostname: 'box', cpu: 'Test CPU', cores: 2, node: 'v20.0.0', platform: 'linux x64', memoryGB: 8 },
  agent: 'Googlebot',
  baseline: 'robots-parser',
  engines: [
    { id: 'wasm-google', label: 'robots-wasm google', library: 'robots-wasm', version: '0.1.0', api: 'isAllowed', profile: 'google' },
    { id: 'robots-parser', label: 'robots-parser', library: 'robots-parser', version: '3.0.1', api: 'isAllowed' },
  ],
  skipped: [{ module: 'exclusion', reason: 'not installed' }],
  workloads: [
    {
      id: 'corpus', title: 'Real corpus', kind: 'throughput', unit: 'URLs/s', description: 'all files', seconds: 10,
      results: {
        'wasm-google': { median: 4_000_000, min: 3_000_000, max: 5_000_000, samples: 12, units: 1000, coverage: 1 },
        'robots-parser': { median: 200_000, min: 150_000, max: 250_000, samples: 9, units: 1000, coverage: 0.5 },
      },
    },
    {
      id: 'pathological', title: 'Pathological file', kind: 'throughput', unit: 'URLs/s', description: 'stars', seconds: 20,
      results: {
        'wasm-google': { median: 1234, min: 1000, max: 1500, samples: 4 },
        'robots-parser': { error: 'timeout: no result within 15 s' },
      },
    },
    {
      id: 'agreement', title: "Agreement with Google's verdicts", kind: 'agreement', unit: '%', description: 'probes', seconds: 30,
      results: {
        'wasm-google': { median: 100, min: 100, max: 100, samples: 1, agree: 10, total: 10, lineAgree: 10, lineTotal: 10, conformance: { agree: 5, total: 5 }, causes: {} },
        'robots-parser': {
          median: 90, min: 90, max: 90, samples: 1, agree: 9, total: 10, conformance: { agree: 4, total: 5 },
          causes: {
            'precedence and ties': { count: 1, lineOnly: 0, example: 'a.example, Googlebot, https://a.example/x: Google allowed (line 3 `Allow: /x`), this engine disallowed' },
            '`*` and `$`': { count: 1, lineOnly: 0, example: 'conformance vector v/1 (FooBot, "/a"): Google disallowed, this engine allowed' },
          },
        },
      },
    },
    {
      id: 'memory', title: 'Memory per compiled host', kind: 'memory', unit: 'bytes/host', description: 'hosts', seconds: 5,
      results: {
        'wasm-google': { median: 4096, min: 4000, max: 5000, samples: 3 },
        'robots-parser': { median: 8192, min: 8000, max: 9000, samples: 3 },
      },
    },
    {
      id: 'classify', title: 'robots classify', kind: 'end-to-end', unit: 'URLs/s', description: 'the command', seconds: 40,
      results: {
        'wasm-google': {
          median: 3_000_000, min: 2_900_000, max: 3_100_000, samples: 3,
          variants: [
            { label: 'robots classify --threads 1', median: 3_000_000, min: 2_900_000, max: 3_100_000, samples: 3, note: 'one' },
            { label: 'robots classify --threads 2', median: 6_000_000, min: 5_000_000, max: 6_100_000, samples: 3, note: '2.00× one thread' },
          ],
        },
      },
    },
  ],
};

describe('bench report', () => {
  const markdown: string = renderReport(results, 'results/2026-01-02-box.json');

  it('renders the headline with ratios against robots-parser and the agreement', () => {
    const row = markdown.split('\n').find((l) => l.startsWith('| robots-wasm google |'));
    // corpus 4M / 200k = 20×; pathological: the baseline timed out, so no ratio; memory 4096 / 8192.
    expect(row).toBe('| robots-wasm google | 20.0× | — | 100% | 0.50× |');
    expect(markdown).toContain('| robots-parser | 1.00× | timeout | 90.00% | 1.00× |');
    expect(markdown).toContain('corpus (× speed)');
  });

  it("says under the headline which columns compare like with like and which compare APIs, and which rows are timed in their own process", () => {
    const guide = markdown.slice(markdown.indexOf('## Headline'), markdown.indexOf('![Throughput'));
    // Only the columns of this run are named: corpus, pathological (APIs), memory; not parse or cold-start.
    expect(guide).toMatch(/How to read it:/);
    expect(guide).toMatch(/corpus.*pathological.*parse once, check many/s);
    expect(guide).toMatch(/memory.*like for like/s);
    expect(guide).not.toMatch(/`cold-start`/);
    expect(guide).not.toMatch(/checkMany/);
    const withPeers = structuredClone(results);
    withPeers.workloads.unshift({ id: 'first-verdict', title: 'First verdict', kind: 'throughput', unit: 'MB/s', description: 'x', seconds: 1, results: {} } as never);
    withPeers.engines.push({ id: 'google-native', label: 'Google robotstxt C++ (native)', library: 'google', version: '1', api: 'own process' });
    withPeers.engines.push({ id: 'wasm-google-batch', label: 'robots-wasm google checkMany', library: 'robots-wasm', version: '0.1.0', api: 'checkMany' });
    const md: string = renderReport(withPeers, 'results/2026-01-02-box.json');
    const guide2 = md.slice(md.indexOf('## Headline'), md.indexOf('![Throughput'));
    expect(guide2).toMatch(/like for like[^.]*`first-verdict`/);
    expect(guide2).toMatch(/Google robotstxt C\+\+ \(native\)[^.]*own process/);
    expect(guide2).toMatch(/`checkMany` row is the same matcher/);
    expect(guide2).not.toMatch(/alone in a process of its own/);
    withPeers.engines.push({ id: 'wasm-google-own', label: 'robots-wasm google (own process)', library: 'robots-wasm', version: '0.1.0', api: 'own process' });
    const md3: string = renderReport(withPeers, 'results/2026-01-02-box.json');
    expect(md3).toMatch(/robots-wasm google \(own process\) is this engine run as the native parsers are, alone in a process of its own/);
  });

  it('takes a workload\'s ratios against the engine it names (pathological: node-robots), in its table and the headline', () => {
    const withNodeRobots = structuredClone(results);
    withNodeRobots.engines.push({ id: 'robots', label: 'robots (node-robots)', library: 'robots', version: '0.10.0', api: 'isAllowed' });
    const patho = withNodeRobots.workloads.find((w) => w.id === 'pathological')!;
    Object.assign(patho, { baseline: { id: 'robots', name: 'node-robots' } });
    Object.assign(patho.results, { robots: { median: 617, min: 600, max: 700, samples: 8 } });
    const md: string = renderReport(withNodeRobots, 'results/2026-01-02-box.json');
    expect(md).toContain('pathological (× speed vs node-robots)');
    expect(md).toContain('| robots-wasm google | 20.0× | 2.00× | 100% | 0.50× |');
    expect(md).toContain('| engine | median URLs/s | min | max | passes | × node-robots | notes |');
    expect(md).toContain('| robots-wasm google | 1.23k | 1.00k | 1.50k | 4 | 2.00× |');
  });

  it('renders each workload with median, min and max, the machine and the source file', () => {
    expect(markdown).toContain('| robots-wasm google | 4.00M | 3.00M | 5.00M | 12 | 20.0× |');
    expect(markdown).toContain('passes went over 50% of the work');
    expect(markdown).toContain('timeout: no result within 15 s');
    expect(markdown).toContain('| robots-wasm google | 4.00 KiB | 3.91 KiB | 4.88 KiB | 3 | 0.50× |');
    expect(markdown).toContain('Test CPU, 2 cores');
    expect(markdown).toContain('bench/results/2026-01-02-box.json');
    expect(markdown).toContain('| exclusion | skipped: not installed | | |');
    expect(markdown).toContain('![Throughput per engine per workload, log scale](report.svg)');
  });

  it('gives each variant of an end-to-end workload a row of its own, outside the headline and the chart', () => {
    expect(markdown).toContain('| robots-wasm google: robots classify --threads 1 | 3.00M | 2.90M | 3.10M | 3 | — | one |');
    expect(markdown).toContain('| robots-wasm google: robots classify --threads 2 | 6.00M | 5.00M | 6.10M | 3 | — | 2.00× one thread |');
    expect(markdown).not.toContain('classify (×');
    expect(renderChart(results)).not.toContain('robots classify');
  });

  it("takes a variant's ratio against the baseline's one figure when the baseline has no variants (top20's cold row)", () => {
    const withCold = structuredClone(results);
    const corpus = withCold.workloads.find((w) => w.id === 'corpus')!;
    const hot = corpus.results['wasm-google'];
    Object.assign(hot, { variants: [{ ...hot, label: 'compiled hot' }, { label: 'cold matcher', median: 1_000_000, min: 900_000, max: 1_100_000, samples: 5, note: '20 of 20 matchers stayed cold' }] });
    const md: string = renderReport(withCold, 'results/2026-01-02-box.json');
    expect(md).toContain('| robots-wasm google: compiled hot | 4.00M | 3.00M | 5.00M | 12 | 20.0× |');
    expect(md).toContain('| robots-wasm google: cold matcher | 1.00M | 900k | 1.10M | 5 | 5.00× | 20 of 20 matchers stayed cold |');
    // The headline keeps the workload's own figure (the first variant's).
    expect(md.split('\n').find((l) => l.startsWith('| robots-wasm google |'))).toBe('| robots-wasm google | 20.0× | — | 100% | 0.50× |');
  });

  it('charts every throughput figure on a log scale, and says timeout where there is none', () => {
    const svg: string = renderChart(results);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect [^>]*fill="#/g)).toHaveLength(3); // 2 corpus bars + 1 pathological bar
    expect(svg).toContain('>timeout<');
    expect(svg).toContain('Real corpus (URLs/s)');
    expect(svg).not.toContain('Agreement');
    // Decades from 1k (the smallest figure, 1,000) to 10M (above the largest, 5M).
    for (const label of ['1.00k', '10.0k', '100k', '1.00M', '10.0M']) expect(svg).toContain(`>${label}</text>`);
    // Log scale: 4M sits one decade-width further right than 400k would; check the bar widths' ratio.
    const widths = [...svg.matchAll(/<rect x="(\d+)" y="[\d.]+" width="([\d.]+)"/g)].map((m) => Number(m[2]));
    const decade = 560 / 4; // PLOT_W over the 4 decades shown
    expect(widths[0] - widths[1]).toBeCloseTo(Math.log10(20) * decade, 0);
  });

  it('charts the envelope (default, always-cold, always-hot over N) apart, outside the headline, and links it from its section', () => {
    expect(renderEnvelopeChart(results)).toBeUndefined(); // (no envelope workload: no chart)
    const curve = [1, 10, 100].map((n, i) => ({ n, default: 2 * n, cold: 2 * n, hot: 10 + n, ratio: [1, 1.1, 2][i], files: [] }));
    const envelope = {
      id: 'envelope', title: 'Envelope', kind: 'envelope', unit: '×', description: 'parse + compile + N checks; more', seconds: 9,
      results: { 'wasm-google': { median: 2, min: 1, max: 2, curve, variants: curve.map((p) => ({ label: `N = ${p.n}`, median: p.ratio, min: p.ratio, max: p.ratio })) } },
    };
    const withEnvelope = { ...results, workloads: [...results.workloads, envelope] };
    const svg = renderEnvelopeChart(withEnvelope)!;
    expect(svg.match(/<polyline /g)).toHaveLength(3); // one engine: default, cold, hot
    expect(svg).toContain('robots-wasm google');
    expect(svg).toContain('fill="#b00">2.00×'); // a ratio over the 1.25× goal stands out
    expect(svg).not.toContain('NaN');
    const md: string = renderReport(withEnvelope, 'results/x.json');
    expect(md).toContain('![Cost of parse + compile + N checks per option, log-log](envelope.svg)');
    expect(md).toContain('| robots-wasm google: N = 100 |');
    expect(renderChart(withEnvelope)).toBe(renderChart(results)); // (not a throughput bar)
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-report-'));
    writeReport(withEnvelope, dir, 'results/x.json');
    expect(readFileSync(path.join(dir, 'envelope.svg'), 'utf8')).toBe(svg);
  });

  it('writes REPORT.md and report.svg, and finds the newest full results file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-report-'));
    writeReport(results, dir, 'results/x.json');
    expect(readFileSync(path.join(dir, 'REPORT.md'), 'utf8')).toBe(renderReport(results, 'results/x.json'));
    expect(readFileSync(path.join(dir, 'report.svg'), 'utf8')).toBe(renderChart(results));
    for (const name of ['2026-01-01-box.json', '2026-01-03-box-quick.json', '2026-01-02-box.json', '2026-01-04-box-partial.json']) {
      writeFileSync(path.join(dir, name), '{}');
    }
    expect(path.basename(newestFullResults(dir)!)).toBe('2026-01-02-box.json');
  });

  it('gives a table per engine of where it differs from Google, causes in their order, and the line and conformance counts', () => {
    const section = markdown.slice(markdown.indexOf('### Where each engine differs from Google'));
    expect(section).toContain('#### robots-wasm google\n\nAgrees with Google on every probe.');
    expect(section).toContain('| cause | verdict differs | only the line differs | example |');
    const parser = section.slice(section.indexOf('#### robots-parser'));
    expect(parser.indexOf('| `*` and `$` | 1 | 0 | conformance vector v/1')).toBeGreaterThan(0);
    expect(parser.indexOf('| `*` and `$` |')).toBeLessThan(parser.indexOf('| precedence and ties | 1 | 0 | a.example'));
    expect(markdown).toContain('10 of 10; conformance vectors: 5 of 5; verdict and matching line: 100% (10)');
    expect(markdown).toContain('9 of 10; conformance vectors: 4 of 5 |');
  });

  it('renders the terminal tables from the same results', () => {
    const text: string = renderResultsText(results);
    expect(text).toContain('Ratios against robots-parser');
    expect(text).toMatch(/robots-wasm google\s+20\.0×\s+—\s+100%\s+0\.50×/);
  });
});

describe('the causes of a disagreement with Google', () => {
  const facts = fileFacts(new TextEncoder().encode('User-agent: *\nDisallow: /\n'));
  const cause = (url: string) => causeOf({ facts, agent: 'Googlebot', url, googleLine: 2, threw: false });

  it('/robots.txt itself is a cause of its own (RFC 9309 allows it; Google lets the rules decide), not a tie', () => {
    expect(cause('https://docs.google.com/robots.txt')).toBe('/robots.txt itself');
    // Another path, or the same with a query, is decided by the rules in both readings.
    expect(cause('https://docs.google.com/robots.txt?x=1')).toBe('precedence and ties');
    expect(cause('https://docs.google.com/a/robots.txt')).toBe('precedence and ties');
  });

  it("a URL that a WHATWG parser (ada, as nzrsky's fork parses URLs) rewrites is a cause of its own: an empty query, dot segments, a backslash, a space", () => {
    expect(cause('https://a.example/search?')).toBe('URL normalisation');
    expect(cause('https://a.example/x?#frag')).toBe('URL normalisation');
    expect(cause('https://a.example/a/./b')).toBe('URL normalisation');
    expect(cause('https://a.example/a/../b')).toBe('URL normalisation');
    expect(cause('https://a.example/a\\b')).toBe('URL normalisation');
    expect(cause('https://a.example/a b')).toBe('URL normalisation');
    // As written, the path and query are what such a parser gives: another cause.
    expect(cause('https://a.example/search?q=1#x')).toBe('precedence and ties');
    expect(cause('https://a.example')).toBe('precedence and ties');
    // %XX in the URL: percent-encoding, first.
    expect(cause('https://a.example/%7Ea/./b')).toBe('percent-encoding');
  });

  it('an error thrown comes first', () => {
    expect(causeOf({ facts, agent: 'Foo Bar', url: 'https://a.example/robots.txt', googleLine: 0, threw: true })).toBe('errors thrown');
  });
});
