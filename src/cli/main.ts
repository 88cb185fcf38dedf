// The `robots` command: argument parsing (commander: a maintained parser with
// subcommands, per-command --help, repeatable options and suggestions for
// typos, without dependencies of its own) and error reporting: a user's
// mistake is one line on stderr and exit code 2, never a stack trace. The
// commands are declared here (their options and help); each one's code is
// imported when it runs, so a run compiles only its own command's modules.
import { Command, CommanderError, Option } from 'commander';
import { DEFAULT_MAX_OCTETS } from '../index.js';
import { FORMATS, formatNames } from './options.js';
import { auditReportSubcommand } from './audit-report-command.js';
import { EXIT_USAGE, reason, userExitCode } from './errors.js';
import { OPERATOR_IDS } from './operator-option.js';

declare const VERSION: string; // set by the build (package.json)

const collect = (value: string, previous: string[] = []) => [...previous, value];
const profileOption = () => new Option('--profile <profile>', "rfc (RFC 9309, URLs and rules normalised as RFC 3986 says) or google (Googlebot's own parser, bit for bit)").default('rfc');
const formatOption = (command: keyof typeof FORMATS) => new Option('--format <format>', formatNames(command)).default(FORMATS[command].text[0]);
/** The body limit, in octets (docs/glossary.md): --max-octets, and its old name --max-bytes (deprecated, kept until 0.2). No commander default: options.ts tells which was given. */
const maxOctetsOption = () => new Option('--max-octets <n>', `octets of robots.txt parsed (at least ${DEFAULT_MAX_OCTETS}, the default), or Infinity`);
const maxBytesAlias = () => new Option('--max-bytes <n>', 'deprecated: the old name of --max-octets');
// The downloads of --robots-warc-list, alike for classify and index.
const warcBaseOption = () => new Option('--warc-base <url|dir>', 'what relative entries of --robots-warc-list are relative to: an http(s) URL or a directory (default: https://data.commoncrawl.org/)');
const warcRetriesOption = () => new Option('--warc-retries <n>', 'retries of a --robots-warc-list download that fails (5xx, 429, 408, a network error, a timeout, a body cut short), after 1 s, 2 s, 4 s ... (at most 60 s) or the Retry-After of a 503 or 429 (at most 10 min) (default: 5)');
const warcTimeoutOption = () => new Option('--warc-timeout-ms <n>', 'a --robots-warc-list download that receives nothing for this long, or less than 1 KiB a second over this long, fails (and is retried) (default: 30000)');
const warcMaxMbOption = () => new Option('--warc-max-mb <n>', 'a --robots-warc-list download longer than this many MiB fails, not retried (default: 4096)');
const rowGroupOption = () => new Option('--row-group <rows>', 'with --format parquet: rows per row group, each held in memory until written (default: 65536)');

let exitCode = 0;
const program = new Command('robots')
  .description('A robots.txt engine: classify URLs in bulk, check and explain verdicts, lint files, compare engines.')
  .version(VERSION, '-V, --version')
  .showSuggestionAfterError()
  // (A command's options stop at its subcommand: `robots audit merge --out F` is merge's --out, not audit's.)
  .enablePositionalOptions()
  .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'robots: ').replace(/\n\(Did you mean/, ' (Did you mean')) })
  .exitOverride();

program
  .command('classify')
  .description('One verdict per URL, in input order: allowed|disallowed<TAB>line<TAB>url.')
  .argument('[urls]', 'file of URLs, one per line (default: stdin; "-" for stdin)')
  .option('--robots <file>', 'one robots.txt for every URL: a file, "-" (stdin), or an http(s) URL fetched as a crawler does')
  .option('--user-agent <header>', 'with --robots URL or --robots-warc-list URLs: the User-Agent header sent (default: robots-wasm/VERSION)')
  .option('--robots-dir <dir>', "each URL's origin's robots.txt: DIR/<scheme>/<host>[:port], else DIR/<host> (the host as robotsUrl() names it: 0x7f.1 is 127.0.0.1, %65.com is e.com, no trailing dot); no file: all allowed; a file that cannot be read: all disallowed")
  .option('--robots-warc <file>', 'robots.txt captures in a WARC file (.warc or .warc.gz; repeatable): each origin\'s latest capture, its HTTP status applied as RFC 9309 says (2xx the rules, 3xx followed among the captures, 4xx all allowed, 5xx and 429 all disallowed, but after a good capture its rules, as RobotsCache keeps its copy; a body decoded no further than --max-octets, the captures so cut counted on stderr)', collect)
  .option('--robots-warc-list <list>', "a list of WARC files as Common Crawl publishes them (robotstxt.paths.gz: one a line, gzipped or plain; \"-\" for stdin; repeatable; with --robots-warc or not): local paths, http(s) URLs, or paths relative to --warc-base; downloads a few at a time to a temporary directory, each removed once read; one that still fails after its retries is named and skipped, and the run ends with exit 1 (5 in a row stop the run: exit 2)", collect)
  .addOption(warcBaseOption())
  .addOption(warcRetriesOption())
  .addOption(warcTimeoutOption())
  .addOption(warcMaxMbOption())
  .option('--robots-index <dir>', 'robots.txt captures indexed by robots index (repeatable: indexes made apart, merged as --robots-warc merges WARCs): with --shard i/N only shard i of each is read (N must be theirs), else every shard; --max-octets no larger than they were made with', collect)
  .option('--as-of <date>', 'with --robots-warc, --robots-warc-list or --robots-index: each origin\'s captures at or before this ISO 8601 date (2024-03-01: to the end of that day, UTC) or date-time (2024-03-01T12:00:00Z), under the cache\'s policy; none then: missing (--missing)')
  .addOption(new Option('--missing <verdict>', 'a host with no robots.txt (no file under --robots-dir, no capture under --robots-warc or --robots-index): allow or disallow its URLs').default('allow'))
  .option('--agent <name>', "the crawler's product token, repeatable or comma-separated for a crawler that obeys several (the groups of any of them apply; default: Googlebot)", collect)
  .option('--crawlers <names>', 'several crawlers by product token, a verdict each (comma-separated or repeatable; at most 256), or a set: @ai (the AI crawlers of ai.robots.txt), @google (Google\'s crawler tokens), e.g. @ai,Googlebot: TSV url<TAB>verdict per crawler after a header line, JSON lines with "crawlers": {name: {allowed, line, usage: {search, train-ai, ai-use}}}', collect)
  .option('--usage', "with --crawlers, TSV: each crawler's use purposes after its verdict (columns NAME:search NAME:train-ai NAME:ai-use: allowed, disallowed or unknown; from Content-Usage and Content-Signal lines, unknown where it may not fetch)")
  .option('--operators <ids>', `each operator's answer per purpose, after the crawlers' columns (TSV columns ID:search ID:train-ai ID:ai-use: yes, no or unknown, the library's operatorUsage(); comma-separated or repeatable; @ai: all): ${OPERATOR_IDS}; JSON lines: "operators": {id: {search, train-ai, ai-use}}; with --agent, its verdict as a column`, collect)
  .option('--shard <i/N>', "only the URLs of this shard's hosts (a stable hash of the host): N machines, each with its own i from 0 to N-1, classify an input together; the union of their outputs is the whole run's")
  .addOption(profileOption())
  .addOption(new Option('--format <format>', `${formatNames('classify')}; or parquet: a Parquet file (--out FILE), the JSON lines' fields as typed columns (docs/bulk.md)`).default(FORMATS.classify.text[0]))
  .option('--urls-parquet <file>', "the URLs from a Parquet file's url column (Common Crawl's columnar index, or any table with one), instead of a file of lines; read a row group at a time")
  .option('--pass-columns <names>', 'with --urls-parquet: these columns of it (comma-separated or repeatable; e.g. url_host_name,fetch_status) added to each URL\'s output, after its own', collect)
  .addOption(rowGroupOption())
  .option('--threads <n>', 'threads that classify (default: the cores; for an input file, one per 32 MiB of it up to the cores)')
  .option('--out <file>', 'write here instead of stdout (only complete output: written under a temporary name, then renamed)')
  .option('--cache-mb <n>', 'memory for compiled hosts per thread, MiB (--robots-dir, --robots-warc, --robots-index)', '256')
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .option('-q, --quiet', 'no summary and no progress bar on stderr')
  .option('--strict-robots-dir', 'stop at a host file that cannot be read (default: warn once, and disallow its URLs as unreachable)')
  .addHelpText('after', `
A blank line is skipped; any other line gets a verdict, URL or not (its path is
taken as Googlebot does). Surrounding whitespace is not part of the URL. A summary
(URLs, hosts, verdicts, URLs per second) goes to stderr, with a progress bar when
stderr is a terminal.

Examples:
  robots classify --robots robots.txt --agent Googlebot urls.txt > verdicts.tsv
  zcat urls.gz | robots classify --robots-dir robots/ --agent Bingbot --format jsonl --out v.jsonl
  robots classify --robots-warc robotstxt.warc.gz --crawlers GPTBot,CCBot,ClaudeBot urls.txt
  robots classify --robots-warc robotstxt.warc.gz --crawlers @ai --usage --profile google urls.txt
  robots classify --robots-warc robotstxt.warc.gz --operators @ai urls.txt
  robots classify --robots-index idx/a --robots-index idx/b --shard 3/16 --as-of 2024-03-01 urls.txt

Exit 0; 1 when a WARC of --robots-warc-list was skipped (named on stderr; every
URL still gets its line); 2 for a usage error.`)
  .action(async (urls: string | undefined, o) => {
    const { classifyCommand } = await import('./classify.js');
    exitCode = await classifyCommand(urls, { ...o, agent: o.agent ?? ['Googlebot'], agentGiven: o.agent !== undefined });
  });

const audit = program
  .command('audit')
  .description('One line per site: per crawler its category from the rules (all: every path disallowed, /robots.txt aside; none: no path disallowed; part: otherwise; exact, not from sample URLs), whether a group names it or only *, its purposes at / (search, train-ai, ai-use); the site\'s Content-Signal, License and LLM-Policy lines; what its robots.txt was. A summary of counts (adding up across shards) on stderr or as JSON.')
  .option('--robots-dir <dir>', 'a robots.txt per site: DIR/<host> (site: the host) and DIR/<scheme>/<host>[:port] (site: scheme://host[:port]); a file that cannot be read: unreachable')
  .option('--robots-warc <file>', 'robots.txt captures in a WARC file (repeatable): each captured /robots.txt URL a site, its capture chosen and its HTTP status applied as classify --robots-warc does', collect)
  .option('--robots-warc-list <list>', 'a list of WARC files as Common Crawl publishes them (as classify --robots-warc-list)', collect)
  .addOption(warcBaseOption())
  .addOption(warcRetriesOption())
  .addOption(warcTimeoutOption())
  .addOption(warcMaxMbOption())
  .option('--user-agent <header>', 'the User-Agent header of --robots-warc-list downloads (default: robots-wasm/VERSION)')
  .option('--robots-index <dir>', 'robots.txt captures indexed by robots index (repeatable); with --shard i/N only shard i of each is read', collect)
  .option('--as-of <date>', 'with captures: each site\'s captures at or before this ISO 8601 date or date-time; several: a crawl per date, labelled by it (as --crawl)', collect)
  .option('--crawl <label=source>', 'a crawl to audit (repeatable: each its sites\' lines with a crawl column, their counts per crawl in the summary, compared in the order given): LABEL=SOURCE, SOURCE an index of robots index, a robots directory or a WARC file', collect)
  .option('--changes <file>', 'across crawls: the sites that moved between consecutive crawls (a crawler\'s category, a Content-Signal added or removed), a row each: TSV, or JSON lines for a name ending .jsonl')
  .option('--ranks <file>', 'a rank,domain CSV (as Tranco publishes it): each site\'s rank (its host\'s, else its nearest listed parent domain\'s) in a rank column, and the summary per stratum: top 1k, 10k, 100k, 1M, unranked')
  .option('--shard <i/N>', "only this shard's hosts (the hash of classify --shard and robots index): the summaries of shards 0..N-1 add up to the whole run's")
  .option('--crawlers <names>', 'crawlers by product token (comma-separated or repeatable) or a set: @ai, @google (default: GPTBot,CCBot,Google-Extended,ClaudeBot,Googlebot,Bingbot)', collect)
  .option('--operators <ids>', `per operator and purpose, the category of the crawler that fetches for it (comma-separated or repeatable; @ai or all: every one): ${OPERATOR_IDS}`, collect)
  .addOption(profileOption())
  .addOption(new Option('--status-convention <name>', 'rfc (RFC 9309: 4xx all allowed; 5xx, 429, unreachable all disallowed) or commoncrawl (also a 403 disallows all, as Common Crawl counts it: not RFC 9309)').default('rfc'))
  .addOption(new Option('--labels <words>', 'the words of the categories: audit (all, part, none) or commoncrawl (disallow-all, allow-part, allow-all: Common Crawl\'s robotstxt-experiments)').default('audit'))
  .addOption(new Option('--format <format>', 'tsv (a header, then a row per site), jsonl (an object per site) or parquet (a Parquet file, --out FILE: the TSV\'s columns, typed)').default('tsv'))
  .addOption(rowGroupOption())
  .option('--out <file>', 'write here instead of stdout (only complete output: written under a temporary name, then renamed)')
  .option('--summary <file>', 'the summary as JSON (plain counts: the summaries of shards add up key by key)')
  .option('--threads <n>', 'worker threads that audit blocks of sites (default 1): the output and summary are one thread\'s')
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .option('-q, --quiet', 'no summary and no progress bar on stderr')
  .addHelpText('after', `
Categories are decided on the rules as the profile applies them (longest match,
ties, * and $, percent-encoding, Google's index.htm rule): exactly, by walking the
automaton of the crawler's rules (docs/audit.md). Crawlers that the same groups
apply to share one answer. A 4xx robots.txt makes every crawler none, a 5xx or an
unreachable one all, a missing one unknown (empty cells).

Examples:
  robots audit --robots-dir robots/ --crawlers GPTBot,CCBot,Google-Extended,ClaudeBot
  robots audit --robots-warc robotstxt.warc.gz --crawlers @ai --format jsonl --out sites.jsonl
  robots index --shards 4 --out idx CC-MAIN-*.warc.gz
  robots audit --robots-index idx --shard 0/4 --summary s0.json --out sites0.tsv
  robots audit --robots-warc robotstxt.warc.gz --operators @ai --threads 2
  robots audit --robots-warc robotstxt.warc.gz --crawlers GPTBot,CCBot,Google-Extended,ClaudeBot \\
    --status-convention commoncrawl --labels commoncrawl     (Common Crawl's method: docs/audit.md)
  robots audit --robots-dir robots/ --ranks tranco.csv --summary s.json
  robots audit --crawl 2025-38=idx/a --crawl 2026-40=idx/b --changes moved.tsv --summary s.json
  robots audit merge s0.json s1.json s2.json s3.json --out whole.json

Exit 0; 1 when a WARC of --robots-warc-list was skipped; 2 for a usage error.`)
  .action(async (o) => {
    const { auditCommand } = await import('./audit.js');
    exitCode = await auditCommand(o);
  });

audit
  .command('merge')
  .description('Adds up the summaries robots audit --summary wrote (shards of one audit on several machines, strata and crawls included) into the summary of the whole, as JSON.')
  .argument('<summaries...>', 'summary files (JSON)')
  .option('--out <file>', 'write here instead of stdout')
  .option('-q, --quiet', 'no summary on stderr')
  .action(async (files: string[], o) => {
    const { auditMergeCommand } = await import('./audit-merge.js');
    exitCode = auditMergeCommand(files, o);
  });

// `robots audit report`: audit's JSON lines as an HTML page of charts (its options in audit-report-command.ts;
// positional options, set on the root above, make --out after `report` report's, not audit's).
audit.enablePositionalOptions().addCommand(auditReportSubcommand((code) => (exitCode = code)).copyInheritedSettings(audit));

program
  .command('index')
  .description("WARC files' robots.txt captures (every one: status, Location, WARC-Date, the body decoded and cut to --max-octets) written into N host shards, for classify --robots-index: run it per WARC file or group of files, on as many machines as there are, each with its own --out.")
  .argument('[warcs...]', 'WARC files (.warc or .warc.gz)')
  .option('--robots-warc <file>', 'a WARC file (repeatable; as the arguments)', collect)
  .option('--robots-warc-list <list>', 'a list of WARC files as Common Crawl publishes them (robotstxt.paths.gz; "-" for stdin; repeatable): local paths, http(s) URLs, or paths relative to --warc-base, downloaded with retries as classify --robots-warc-list does; one skipped after its retries makes the run exit 1 (the index is written without it)', collect)
  .addOption(warcBaseOption())
  .addOption(warcRetriesOption())
  .addOption(warcTimeoutOption())
  .addOption(warcMaxMbOption())
  .option('--user-agent <header>', 'the User-Agent header of --robots-warc-list downloads (default: robots-wasm/VERSION)')
  .option('--shards <n>', 'host shards (the hash of --shard: shard i of the index is what classify --shard i/N reads)', '1')
  .option('--out <dir>', 'the index directory: DIR/index.json (the manifest) and a file per shard; an index of as many shards there is replaced, of another number refused')
  .option('--threads <n>', 'threads that read the WARCs gzipped per record, the main thread one of them, each parsing stretches of them, several files at once; the main thread\'s stretches inflate on libuv\'s threadpool, the others\' on their own thread (default: all cores but one, or the main thread and a worker per 16 MiB of WARC files shorter than that; under 16 MiB the main thread reads them in one stream); a plain or whole-file gzip WARC is read by the main thread in one stream')
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .option('-q, --quiet', 'no summary and no progress on stderr')
  .addHelpText('after', `
Each shard file is checked when read (a header naming its index, a CRC-32 per
record, a footer): a damaged, cut or foreign file is refused in one line. Files
are written under temporary names and renamed, the manifest last: a run cut
short leaves no index. Progress: a bar on a terminal, else a line every 30 s.

Examples:
  robots index --shards 16 --out idx/0 CC-MAIN-*-00000.warc.gz CC-MAIN-*-00001.warc.gz
  robots classify --robots-index idx/0 --robots-index idx/1 --shard 3/16 urls.txt`)
  .action(async (warcs: string[], o) => {
    const { indexCommand } = await import('./index-warcs.js');
    exitCode = await indexCommand(warcs, o);
  });

program
  .command('shard')
  .description('Each URL line labelled with its host\'s shard, as classify --shard and robots index hash it: shard<TAB>line (blank lines skipped), the key to cut an input into partitions for classify --shard i/N.')
  .argument('[urls]', 'file of URLs, one per line (default: stdin; "-" for stdin)')
  .option('--shards <n>', 'the number of shards (N)', '1')
  .action(async (urls: string | undefined, o) => {
    const { shardCommand } = await import('./shard.js');
    exitCode = await shardCommand(urls, o);
  });

program
  .command('check')
  .description('Verdicts for URLs, with the deciding line and rule. Exit 0: all allowed; 1: any disallowed; 2: usage error.')
  .argument('<file>', 'robots.txt ("-" for stdin)')
  .argument('<agent>', "the crawler's product token, e.g. Googlebot (rfc refuses another name; google compares it whole, so the * group applies, and says so on stderr)")
  .argument('<url...>', 'URLs to check')
  .addOption(profileOption())
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .addOption(formatOption('check'))
  .option('--operator <ids>', `an operator's answer per purpose, a column each after the others (id:search,train-ai,ai-use: yes, no or unknown; comma-separated or repeatable; @ai: all): ${OPERATOR_IDS}; JSON: "operators", the library's operatorUsage()`, collect)
  .option('--usage', 'text: four more columns, what the crawler may do with each URL\'s content (search, train-ai, ai-use: allowed, disallowed or unknown) and the robots.txt lines that say so (--format json always has them: purposes, signals)')
  .action(async (file: string, agent: string, urls: string[], o) => {
    const { checkCommand } = await import('./check.js');
    exitCode = checkCommand(file, agent, urls, o);
  });

program
  .command('explain')
  .description('Why a URL is allowed or not: the group, every matching rule with its length, the decision; then what the crawler may do with the content (search, train-ai, ai-use) and the Content-Usage and Content-Signal lines that say so. Exit 0: allowed; 1: disallowed; 2: usage error (as check).')
  .argument('<file>', 'robots.txt ("-" for stdin)')
  .argument('<agent>', "the crawler's product token, e.g. Googlebot (rfc refuses another name; google compares it whole, so the * group applies, and says so on stderr)")
  .argument('<url>', 'the URL')
  .addOption(profileOption())
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .addOption(formatOption('explain'))
  .option('--operator <ids>', `an operator's answer per purpose (search, train-ai, ai-use: yes, no or unknown), with the lines behind its crawler's verdict and the site's preference (comma-separated or repeatable; @ai: all): ${OPERATOR_IDS}; JSON: "operators", the library's operatorUsage()`, collect)
  .action(async (file: string, agent: string, url: string, o) => {
    const { explainCommand } = await import('./explain.js');
    exitCode = explainCommand(file, agent, url, o);
  });

program
  .command('lint')
  .description('Lines ignored or bent and common mistakes, with line numbers; sitemaps and crawl-delays found; a total for a directory. Exit 1 when there are errors or an entry of a directory cannot be read.')
  .argument('<file>', 'robots.txt, a directory of them (each file), or "-" for stdin')
  .addOption(profileOption())
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .addOption(new Option('--format <format>', `${formatNames('lint')} (a report, or a list of them for a directory)`).default('text'))
  .action(async (file: string, o) => {
    const { lintCommand } = await import('./lint.js');
    exitCode = lintCommand(file, o);
  });

program
  .command('fetch')
  .description("A site's robots.txt fetched as a crawler does (status codes, redirects, size limit: RFC 9309 and Google), and what it means: the URL's verdict for the crawler, the sitemaps, the crawl-delay. Exit 0: fetched; 1: unavailable or unreachable; 2: usage error (an http or https URL only).")
  .argument('<url>', 'any URL of the site (its origin\'s /robots.txt is fetched; the verdict is for this URL)')
  .option('--user-agent <header>', 'the User-Agent header sent (default: robots-wasm/VERSION)')
  .option('--agent <name>', "the crawler the URL's verdict and crawl-delay are for (default: the product token of --user-agent, else Googlebot)")
  .addOption(profileOption())
  .option('--timeout-ms <n>', 'for the whole fetch, redirects and body included', '10000')
  .addOption(maxOctetsOption())
  .addOption(maxBytesAlias())
  .option('-o, --out <file>', 'write the body read here')
  .addOption(formatOption('fetch'))
  .action(async (url: string, o) => {
    const { fetchCommand } = await import('./fetch.js');
    exitCode = await fetchCommand(url, o);
  });

program
  .command('bench')
  .description('Every installed robots.txt engine (this one and its peers) on your robots.txt and URLs: URLs/s side by side.')
  .argument('<file>', 'robots.txt ("-" for stdin)')
  .argument('<urls>', 'file of URLs, one per line ("-" for stdin)')
  .option('--agent <name>', "the crawler's product token", 'Googlebot')
  .option('--profile <profile>', "only this engine's rfc or google variants (default: both)")
  .option('--quick', 'shorter timings (less steady figures)')
  .option('-q, --quiet', 'no progress lines on stderr')
  .addHelpText('after', `
Each engine parses the file once, makes a warm pass over the URLs, then is timed
over passes of them (tinybench). The table gives median, min and max URLs/s and
the ratio to robots-parser. Peers that are not installed are skipped with a note:
npm install robots-parser robots-txt-guard robots-txt-parse robots-txt-parser
robots exclusion adds them. Google's WASM and native C++ builds and Python's
urllib.robotparser and protego run too where they are available (in the
repository: apt-get install -y g++ pkg-config libabsl-dev emscripten
python3-protego, then npm run build:peers); the native build and the Python
parsers are timed by their own process on the same file and URLs. The
repository's npm run bench runs the full harness.`)
  .action(async (file: string, urls: string, o) => {
    const { benchCommand } = await import('./bench.js');
    exitCode = await benchCommand(file, urls, o);
  });

program
  .command('serve')
  .description('The robots.txt tester page on a local web server: edit a robots.txt, list URLs, see each verdict, its deciding line and why, compare two versions. Everything runs in the browser.')
  .option('--port <n>', 'port to listen on (0: any free port)', '8080')
  .option('--host <address>', 'address to listen on', '127.0.0.1')
  .addHelpText('after', `
The page is static (dist/web/): any web server can serve it as well. Its state
lives in the URL fragment, so a result can be shared as a link.`)
  .action(async (o) => {
    const { serveCommand } = await import('./serve.js');
    exitCode = await serveCommand(o);
  });

// A reader that went away (`robots ... | head`) is not an error. Any other
// failure of stdout (a full disk, /dev/full, an I/O error) ends the command with
// one line and exit 2, whichever command wrote: the output is lost anyway.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') return;
  process.stderr.write(`robots: cannot write the output: ${reason(e)}\n`);
  process.exit(EXIT_USAGE);
});
// A failing stderr has nowhere to be reported: the exit code still says how the command ended.
process.stderr.on('error', () => {});

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // --help and --version end here too, with code 0.
    exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
  } else if (userExitCode(e) !== undefined) {
    process.stderr.write(`robots: ${(e as Error).message}\n`);
    exitCode = userExitCode(e)!;
  } else {
    // A bug, not the user's mistake: say so; the stack only on request.
    const err = e as Error;
    process.stderr.write(`robots: internal error: ${err?.message ?? String(e)}${process.env.ROBOTS_DEBUG ? `\n${err?.stack}` : ' (set ROBOTS_DEBUG=1 for details)'}\n`);
    exitCode = 70;
  }
}
process.exitCode = exitCode;
