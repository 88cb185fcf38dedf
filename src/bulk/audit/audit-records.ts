// A site's robots.txt read for the audit: only what a record asks of it (the
// groups with their user-agent lines, rules and use-preference lines; the
// License and LLM-Policy lines). The engine's readRecords (records.ts) also
// keeps what the audit never reads: the Sitemap values and Crawl-delay runs as
// strings and objects, a diagnostic a line lint would report, the body's UTF-8
// checked for them; each of those a site cost the audit without changing its
// answer. The groups are made as readRecords makes them (the same objects,
// the same boundaries: a test holds the two equal over the corpus). The core
// writes records only of the lines read here (lexBatches' groupKeys): sitemaps,
// comments, HTML are counted, not split; crawl-delays, unknown keys and
// invalid lines make no record.
import { lexBatches } from '../../engine/parse/lexer.js';
import type { Profile, UsageField } from '../../index.js';
import { agentLine, AgentValues, type FileLine, type Group, type Records, type UsageLine } from '../../engine/parse/records.js';
import { traitsOf } from '../../engine/parse/profile.js';
import {
  KEY_ALLOW, KEY_CONTENT_SIGNAL, KEY_CONTENT_USAGE, KEY_DISALLOW, KEY_LICENSE, KEY_USER_AGENT, LEX_FIELDS, LEX_KEY, LEX_LINE,
  LEX_VALUE_END, LEX_VALUE_START,
} from '../../engine/wasm/layout.js';

/** What the audit reads of a file (readRecords' Records have these and more). */
export type AuditRecords = Pick<Records, 'body' | 'groups' | 'licenses' | 'llmPolicies'>;

/** Records the core's lexer wrote for the reader, each a line its JavaScript reads, counted (tests bound the work
 * of lines the audit does not read: a count, not a clock). */
export const auditLineWork = { records: 0 };

const utf8 = new TextDecoder('utf-8');
const NO_USAGE: UsageLine[] = Object.freeze([]) as unknown as UsageLine[];
const NO_FILE_LINES: FileLine[] = Object.freeze([]) as unknown as FileLine[];

/** The groups, License and LLM-Policy lines of body, as readRecords(body, profile) has them. */
export function readAuditRecords(body: Uint8Array, profile: Profile): AuditRecords {
  const usageIsRule = traitsOf(profile).contentUsageIsRule;
  const groups: Group[] = [];
  let licenses = NO_FILE_LINES;
  let llmPolicies = NO_FILE_LINES;
  let group: Group | null = null;
  /** The current group has had a rule: a user-agent line starts a new one. */
  let groupHasRule = false;
  const agentValues = new AgentValues();
  let records = 0;
  lexBatches(body, (r, from, to) => {
    records += (to - from) / LEX_FIELDS;
    for (let i = from; i < to; i += LEX_FIELDS) {
      // (Only the kinds read here have records: invalid and truncated lines, and the others, only ever made a
      // diagnostic or a sitemap.)
      const kind = r[i + LEX_KEY];
      const line = r[i + LEX_LINE];
      const start = r[i + LEX_VALUE_START];
      const end = r[i + LEX_VALUE_END];
      if (kind === KEY_ALLOW || kind === KEY_DISALLOW) {
        // (A rule before any user-agent line belongs to no group.)
        if (group === null) continue;
        group.rules.push({ kind: kind === KEY_ALLOW ? 'allow' : 'disallow', line, start, end });
        groupHasRule = true;
      } else if (kind === KEY_USER_AGENT) {
        if (group === null || groupHasRule) {
          group = { agents: [], rules: [], usage: NO_USAGE };
          groups.push(group);
          groupHasRule = false;
        }
        group.agents.push(agentLine(line, body, start, end, agentValues));
      } else if (kind === KEY_CONTENT_USAGE || kind === KEY_CONTENT_SIGNAL) {
        // (Outside any group a preference counts for nothing: lint's business.)
        if (group === null) continue;
        const field: UsageField = kind === KEY_CONTENT_USAGE ? 'content-usage' : 'content-signal';
        if (group.usage === NO_USAGE) group.usage = [];
        group.usage.push(usageLine(field, line, body, start, end));
        if (field === 'content-usage' && usageIsRule) groupHasRule = true;
      } else if (kind === KEY_LICENSE) {
        if (licenses === NO_FILE_LINES) licenses = [];
        licenses.push({ line, value: utf8.decode(body.subarray(start, end)) });
      } else {
        if (llmPolicies === NO_FILE_LINES) llmPolicies = [];
        llmPolicies.push({ line, value: utf8.decode(body.subarray(start, end)) });
      }
    }
  }, true);
  auditLineWork.records += records;
  return { body, groups, licenses, llmPolicies };
}

/** A use preference as records.ts reads it: a Content-Usage value starting with '/' starts with a path pattern, which ends at the first space or tab. */
function usageLine(field: UsageField, line: number, b: Uint8Array, start: number, end: number): UsageLine {
  let split = start;
  if (field === 'content-usage' && b[start] === 0x2f) while (split < end && b[split] !== 0x20 && b[split] !== 0x09) split++;
  let from = split;
  while (from < end && (b[from] === 0x20 || b[from] === 0x09)) from++;
  return { field, line, path: utf8.decode(b.subarray(start, split)), pathOctets: b.slice(start, split), value: utf8.decode(b.subarray(from, end)) };
}
