// The shipped data of AI crawler operators (src/data/operators.ts), held to its
// invariants: the operators the purpose verdicts need are there, every token can
// stand in a User-agent line, no token belongs to two operators or is both a
// crawler and a control token, every entry says where it is from and when, the
// tokens ai.robots.txt also lists are given to the same operator there, and the
// control tokens govern what their operators say they do.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AI_CRAWLERS } from '../../src/data/ai-crawlers.js';
import {
  CONTROL_TOKENS,
  OPERATORS,
  OPERATOR_PURPOSES,
  TRAINING_PREFERENCE_DRAFT,
  controlTokenOf,
  operatorById,
  operatorOfToken,
  type OperatorPurpose,
  type Source,
} from '../../src/data/operators.js';

/** RFC 9309's product token: `identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A)`. */
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;
/** A page's own date, or when it was read. */
const DATE = /^(?:\d{4}-\d{2}(?:-\d{2})?|read \d{4}-\d{2})$/;
const REQUIRED = ['google', 'openai', 'anthropic', 'apple', 'perplexity', 'common-crawl', 'meta', 'amazon', 'bytedance', 'microsoft', 'mistral', 'cohere', 'duckduckgo', 'you'];

const lower = (s: string) => s.toLowerCase();
const crawlerTokens = OPERATORS.flatMap((o) => o.crawlers.map((c) => ({ operator: o, token: c.token })));
const controlTokens = OPERATORS.flatMap((o) => o.controlTokens.map((c) => ({ operator: o, token: c.token })));
const formerTokens = OPERATORS.flatMap((o) => o.formerTokens.map((c) => ({ operator: o, token: c.token })));
const allTokens = [...crawlerTokens, ...controlTokens, ...formerTokens];

/** Every source an entry cites, named by where it is. */
function sources(): [string, Source][] {
  return OPERATORS.flatMap((o) => [
    ...o.sources.map((s, i): [string, Source] => [`${o.id} sources[${i}]`, s]),
    ...o.crawlers.map((c): [string, Source] => [`${o.id} ${c.token}`, c.source]),
    ...o.controlTokens.map((c): [string, Source] => [`${o.id} ${c.token} (control)`, c.source]),
    ...o.otherControls.map((c): [string, Source] => [`${o.id} ${c.control}`, c.source]),
    ...o.formerTokens.map((c): [string, Source] => [`${o.id} ${c.token} (former)`, c.source]),
  ]);
}

describe('operators data: coverage and shape', () => {
  it('has every operator the issue asks for, each id a lower-case slug, none twice', () => {
    const ids = OPERATORS.map((o) => o.id);
    expect(ids.filter((id) => !/^[a-z][a-z0-9-]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(REQUIRED.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('every operator has a crawler or a control token, and every crawler a purpose', () => {
    expect(OPERATORS.filter((o) => o.crawlers.length + o.controlTokens.length === 0).map((o) => o.id)).toEqual([]);
    const none = OPERATORS.flatMap((o) => o.crawlers.filter((c) => c.purposes.length === 0).map((c) => c.token));
    expect(none).toEqual([]);
  });

  it('purposes are the four labels, none twice in an entry; control tokens govern AIPREF labels only', () => {
    for (const o of OPERATORS) {
      for (const c of o.crawlers) {
        expect(c.purposes.every((p) => OPERATOR_PURPOSES.includes(p)), c.token).toBe(true);
        expect(new Set(c.purposes).size, c.token).toBe(c.purposes.length);
      }
      for (const c of [...o.controlTokens, ...o.otherControls]) {
        expect(c.governs.length).toBeGreaterThan(0);
        expect(c.governs.every((p: string) => p !== 'user' && OPERATOR_PURPOSES.includes(p as OperatorPurpose))).toBe(true);
      }
    }
  });

  it('the major operators each have a training and a user or search entry the verdicts can read', () => {
    const trains = (id: string) => {
      const o = operatorById(id)!;
      return o.crawlers.some((c) => c.purposes.includes('train-ai')) || o.controlTokens.some((c) => c.governs.includes('train-ai'));
    };
    for (const id of ['openai', 'anthropic', 'google', 'apple', 'common-crawl', 'meta', 'amazon', 'mistral']) expect(trains(id), id).toBe(true);
    expect(operatorById('openai')!.crawlers.find((c) => c.purposes.includes('user'))?.token).toBe('ChatGPT-User');
    expect(operatorById('anthropic')!.crawlers.find((c) => c.purposes.includes('search'))?.token).toBe('Claude-SearchBot');
  });
});

describe('operators data: tokens', () => {
  it('every token is an RFC 9309 product token, as a User-agent line needs', () => {
    expect(allTokens.filter((t) => !PRODUCT_TOKEN.test(t.token)).map((t) => t.token)).toEqual([]);
  });

  it('no token (case aside) is claimed twice, by two operators or twice by one', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const t of allTokens) {
      const k = lower(t.token);
      if (seen.has(k)) twice.push(`${t.token}: ${seen.get(k)} and ${t.operator.id}`);
      else seen.set(k, t.operator.id);
    }
    expect(twice).toEqual([]);
  });

  it('control tokens are not fetching crawlers (of any operator)', () => {
    const fetching = new Set(crawlerTokens.map((t) => lower(t.token)));
    expect(controlTokens.filter((t) => fetching.has(lower(t.token))).map((t) => t.token)).toEqual([]);
  });

  it('tokens ai.robots.txt also lists have the same operator there (where it names one)', () => {
    const listed = new Map(AI_CRAWLERS.map((c) => [lower(c.name), c]));
    const names = (o: (typeof OPERATORS)[number]) => [o.name, ...o.aliases];
    const word = (n: string) => new RegExp(`(?:^|[^A-Za-z])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[^A-Za-z]|$)`, 'i');
    const found: string[] = [];
    const differ: string[] = [];
    for (const t of allTokens) {
      const entry = listed.get(lower(t.token));
      if (entry === undefined) continue;
      found.push(t.token);
      if (entry.operator !== '' && !names(t.operator).some((n) => word(n).test(entry.operator))) differ.push(`${t.token}: ours ${t.operator.name}, ai.robots.txt "${entry.operator}"`);
    }
    expect(differ).toEqual([]);
    // The check is not empty: most tokens here are on ai.robots.txt's list.
    expect(found.length).toBeGreaterThan(20);
  });
});

describe('operators data: sources', () => {
  it('every entry has a source with an http(s) URL and a date', () => {
    const bad = sources().filter(([, s]) => {
      let ok = false;
      try {
        ok = /^https?:$/.test(new URL(s.url).protocol);
      } catch {
        ok = false;
      }
      return !ok || !DATE.test(s.date);
    });
    expect(bad.map(([where, s]) => `${where}: ${s.url} ${s.date}`)).toEqual([]);
  });

  it('an entry that leans on ai.robots.txt or a third party says so: low confidence and a note', () => {
    for (const o of OPERATORS) {
      for (const c of [...o.crawlers, ...o.controlTokens]) {
        if (c.source.url.includes('ai-robots-txt/ai.robots.txt')) expect(c.confidence, c.token).toBe('low');
        if (c.confidence === 'low') expect(c.note ?? '', c.token).toMatch(/not found|no crawler page|unclear|third part/i);
        if (c.source.via !== undefined) expect(c.confidence, c.token).not.toBe('high');
      }
    }
  });

  it('operators with an unclear source say so in the data', () => {
    for (const id of ['bytedance', 'cohere']) expect(operatorById(id)!.note).toMatch(/unclear source/i);
  });
});

describe('operators data: control tokens', () => {
  it('Google-Extended governs train-ai and ai-use for Google', () => {
    const g = controlTokenOf('Google-Extended')!;
    expect(g.operator).toBe('google');
    expect([...g.governs].sort()).toEqual(['ai-use', 'train-ai']);
  });

  it('Applebot-Extended governs train-ai for Apple', () => {
    const a = controlTokenOf('Applebot-Extended')!;
    expect(a.operator).toBe('apple');
    expect([...a.governs]).toEqual(['train-ai']);
  });

  it('CONTROL_TOKENS is the operators’ control tokens, each with its operator', () => {
    expect(CONTROL_TOKENS.map((c) => `${c.operator}:${c.token}`)).toEqual(OPERATORS.flatMap((o) => o.controlTokens.map((c) => `${o.id}:${c.token}`)));
  });

  it('the kelley draft’s token is not shipped while it is not confirmed', () => {
    expect(TRAINING_PREFERENCE_DRAFT.token).toBeNull();
    expect(TRAINING_PREFERENCE_DRAFT.date).toBe('2026-10-30');
  });
});

describe('operators data: lookups', () => {
  it('controlTokenOf and operatorOfToken read a name case aside; crawler tokens are not control tokens', () => {
    expect(controlTokenOf('google-extended')?.token).toBe('Google-Extended');
    expect(controlTokenOf('APPLEBOT-EXTENDED')?.operator).toBe('apple');
    expect(controlTokenOf('GPTBot')).toBeUndefined();
    expect(controlTokenOf('')).toBeUndefined();
    expect(operatorOfToken('gptbot')?.id).toBe('openai');
    expect(operatorOfToken('Google-Extended')?.id).toBe('google');
    expect(operatorOfToken('NoSuchBot')).toBeUndefined();
  });

  it('operatorById finds by slug only', () => {
    expect(operatorById('openai')?.name).toBe('OpenAI');
    expect(operatorById('OpenAI')).toBeUndefined();
  });

  it('case folding is ASCII only: the Kelvin sign does not fold to k', () => {
    expect(operatorOfToken('TikTokSpider')?.id).toBe('bytedance');
    expect(operatorOfToken('TikTokSpider'.replace('k', '\u212A'))).toBeUndefined();
  });
});

describe('operators data: its page', () => {
  it('docs/operators.md names every token and control of the data, with its confidence', () => {
    const page = readFileSync(new URL('../../docs/operators.md', import.meta.url), 'utf8');
    const rows = page.split('\n').filter((l) => l.startsWith('| '));
    const missing: string[] = [];
    for (const o of OPERATORS) {
      for (const c of [...o.crawlers, ...o.controlTokens]) {
        const row = rows.find((r) => r.includes(`| \`${c.token}\``));
        if (row === undefined || !row.includes(`| ${o.name} |`) || !row.trimEnd().endsWith(`| ${c.confidence} |`) || !row.includes(`| ${c.source.date} |`)) missing.push(c.token);
      }
      for (const c of o.otherControls) if (!rows.some((r) => r.includes(`| ${o.name} | \`${c.control}\``))) missing.push(c.control);
    }
    expect(missing).toEqual([]);
  });
});
