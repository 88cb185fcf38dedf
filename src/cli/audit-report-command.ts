// `robots audit report`'s declaration: its arguments, options and help, cheap to
// make for every run of the command; the report's code (audit-report.ts and the
// page's modules) is imported only when the subcommand runs.
import { Command } from 'commander';
import type { AuditReportOptions } from './audit-report.js';

/** The subcommand, as `robots audit report` (added to audit's command in main.ts). */
export function auditReportSubcommand(done: (exitCode: number) => void): Command {
  return new Command('report')
    .description("An HTML page of charts from audit's per-site JSON lines (--format jsonl): per crawler the share of sites per category, per rank stratum (lines with \"rank\"), per crawl as a trend (lines with \"crawl\"), per operator and purpose, Content-Signal lines; each chart with its table. Self-contained: inline SVG and style, no script, nothing fetched.")
    .argument('[files...]', 'JSON lines of robots audit (default: stdin; "-" for stdin)')
    .option('--out <file>', 'write the page here instead of stdout (written whole: a temporary name, then renamed)')
    .option('--tsv-dir <dir>', "also write each chart's table as DIR/<table>.tsv (status, crawlers, strata, crawls, operators, lines), for one's own plots")
    .option('--title <text>', 'the title of the page', 'robots audit report')
    .option('-q, --quiet', 'no warnings and no summary on stderr')
    .addHelpText('after', `
Counts are computed from the lines (any number of files: shards' or crawls'
outputs together). Categories in either labels (all/part/none or
disallow-all/allow-part/allow-all). With several crawls, the charts of one crawl
show the last label in sorted order. A line that is not a site line of robots
audit is counted, named on stderr (the first 5) and left out.

Examples:
  robots audit --robots-dir robots/ --format jsonl --out sites.jsonl
  robots audit report sites.jsonl --out report.html --tsv-dir report-tsv
  cat shard-*.jsonl | robots audit report --out report.html

Exit 0; 2 for a usage error or an input with no site line.`)
    .action(async (files: string[], o: AuditReportOptions) => {
      const { auditReportCommand } = await import('./audit-report.js');
      done(await auditReportCommand(files, o));
    });
}
