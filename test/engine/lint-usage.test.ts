// lint() on use preferences and crawler names (issue 30): each finding with its
// code, line and message, a case that fails when the check is broken (and one it
// must not fire on), the 21 names of the shipped AI crawler list that are not
// product tokens, and Cloudflare's managed file (its two `*` groups merge).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProductToken, lint, parse, type Finding } from '../../src/index.js';
import { AI_CRAWLERS } from '../../src/data/ai-crawlers.js';
import { CLOUDFLARE } from '../helpers/cloudflare-robots.js';
import { shownText } from '../../src/text/shown-text.js';

const found = (body: string) => lint(body).findings.map((f) => [f.line, f.code, f.severity]);
const messages = (body: string, code: Finding['code']) => lint(body).findings.filter((f) => f.code === code).map((f) => [f.line, f.message]);

describe('Content-Usage and Content-Signal values', () => {
  it('a clean file: no finding (both fields, a path pattern, parameters, every known key)', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y;note=1\nContent-Signal: search=yes, ai-input=no, ai-train=no\nAllow: /\n';
    expect(lint(body).findings).toEqual([]);
  });

  it('invalid-content-usage (an error): a Dictionary that fails to parse, with the likely fix', () => {
    const body = 'User-agent: *\nContent-Usage: Train-ai=n\nContent-Usage: /a search=y,\nContent-Usage: *.pdf train-ai=n\nContent-Usage: /b search=(y\nAllow: /\n';
    expect(found(body)).toEqual([
      [2, 'invalid-content-usage', 'error'], [3, 'invalid-content-usage', 'error'], [4, 'invalid-content-usage', 'error'], [5, 'invalid-content-usage', 'error'],
    ]);
    expect(messages(body, 'invalid-content-usage')).toEqual([
      [2, '"Train-ai=n": Content-Usage keys are lower case (a capital letter fails the whole preference, RFC 9651): the whole line says nothing (write "train-ai=n")'],
      [3, '"search=y,": a trailing comma fails the whole preference (RFC 9651): the whole line says nothing'],
      [4, '"*.pdf train-ai=n": a path pattern starts with "/": the whole line says nothing (write "/*.pdf train-ai=n")'],
      [5, '"search=(y" is not a structured-field Dictionary (RFC 9651: "key=value" items separated by commas, e.g. "train-ai=n, search=y"): the whole line says nothing'],
    ]);
    expect(lint(body).errors).toBe(4);
  });

  it('invalid-usage-value: a known key with another value than y/n (Content-Usage) or yes/no (Content-Signal)', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=yes, search="n", search=n\nContent-Usage: train-ai\nContent-Signal: ai-train=n, search=maybe, ai-input\nAllow: /\n';
    expect(messages(body, 'invalid-usage-value')).toEqual([
      [2, '"train-ai=yes": Content-Usage takes y or n (write "train-ai=y"); any other value leaves train-ai unknown'],
      // (A key alone is the Boolean true.)
      [3, '"train-ai": Content-Usage takes y or n; any other value leaves train-ai unknown'],
      [4, '"ai-train=n": Content-Signal takes yes or no (write "ai-train=no"); any other value leaves ai-train unknown'],
      [4, '"search=maybe": Content-Signal takes yes or no; any other value leaves search unknown'],
      [4, '"ai-input": Content-Signal takes yes or no; any other value leaves ai-input unknown'],
    ]);
    // A repeated key: the last value stands (search=n), so the String "n" before it is no finding.
    expect(messages('User-agent: *\nContent-Usage: search="n", search=n\n', 'invalid-usage-value')).toEqual([]);
    expect(lint(body).errors).toBe(0);
  });

  it('unknown-usage-key: keys neither vocabulary defines, and a purpose under the other field\'s name', () => {
    const body = 'User-agent: *\nContent-Usage: foo=n, ai-input=n, ai-train=n\nContent-Signal: use=reference, train-ai=no\nAllow: /\n';
    expect(messages(body, 'unknown-usage-key')).toEqual([
      [2, 'Content-Usage key "foo" means nothing to crawlers: it is a label of no AIPREF draft (draft-ietf-aipref-vocab-08\'s labels are search, train-ai and ai-use, e.g. "train-ai=n")'],
      [2, 'Content-Usage key "ai-input" means nothing to crawlers: ai-input is Content-Signal\'s key; AIPREF calls it ai-use ("ai-use=n")'],
      [2, 'Content-Usage key "ai-train" means nothing to crawlers: ai-train is Content-Signal\'s key; AIPREF calls it train-ai ("train-ai=n")'],
      [3, 'Content-Signal key "use" means nothing to crawlers (the signals are search, ai-input and ai-train)'],
      [3, 'Content-Signal key "train-ai" means nothing to crawlers: Content-Signal calls it ai-train ("ai-train=no")'],
    ]);
  });

  it('legacy-usage-label: every label of the earlier AIPREF drafts, in either field', () => {
    const legacy = ['ai', 'genai', 'tdm', 'train-genai', 'inference', 'bots', 'ai-output', 'all'];
    const body = `User-agent: *\nContent-Usage: ${legacy.map((l) => `${l}=n`).join(', ')}\nContent-Signal: tdm=no\nAllow: /\n`;
    const f = lint(body).findings;
    expect(f.map((x) => x.code)).toEqual(Array(legacy.length + 1).fill('legacy-usage-label'));
    expect(f[2].message).toBe('"tdm" is a label of an earlier AIPREF draft that draft-ietf-aipref-vocab-08 does not define: crawlers ignore it (its labels are search, train-ai and ai-use, e.g. "train-ai=n")');
    expect(f[legacy.length]).toMatchObject({ line: 3, message: '"tdm" is a label of an earlier AIPREF draft, not a Content-Signal: crawlers ignore it (the signals are search, ai-input and ai-train, e.g. "ai-train=no")' });
    // The current labels are not legacy.
    expect(lint('User-agent: *\nContent-Usage: train-ai=n, search=n, ai-use=n\n').findings).toEqual([]);
  });

  it('usage-outside-group (an error): a signal before any user-agent line counts for nothing', () => {
    const body = 'Content-Signal: ai-train=no\nContent-Usage: Train-ai=n\nLicense: https://example.com/l.xml\nUser-agent: *\nContent-Signal: search=yes\n';
    expect(found(body)).toEqual([[1, 'usage-outside-group', 'error'], [2, 'usage-outside-group', 'error']]);
    expect(lint(body).findings[0].message).toBe('Content-Signal before any user-agent line counts for nothing: a use preference belongs to a group (put it after "User-agent: *" for every crawler)');
  });
});

describe('usage-contradicts-rules: a preference that allows a use where nothing may be fetched', () => {
  it('Content-Signal ai-train=yes in a group that disallows everything', () => {
    const body = 'User-agent: GPTBot\nContent-Signal: search=yes, ai-train=yes\nDisallow: /\n\nUser-agent: *\nAllow: /\n';
    expect(messages(body, 'usage-contradicts-rules')).toEqual([
      [2, 'Content-Signal allows search and ai-train, but the rules disallow every path to the crawlers of this group (line 3): they may fetch nothing, so it never applies (no preference holds for what may not be fetched)'],
    ]);
    // Content-Usage too, and "Disallow: /*" or "*" is every path as well.
    expect(found('User-agent: FooBot\nContent-Usage: train-ai=y\nDisallow: /*\n')).toEqual([[2, 'usage-contradicts-rules', 'warning']]);
    expect(found('User-agent: FooBot\nDisallow: *\nContent-Signal: ai-input=yes\n')).toEqual([[3, 'usage-contradicts-rules', 'warning']]);
  });

  it('not when something may be fetched: an Allow, a narrower Disallow, a group it merges with, another name of the group; nor for a "no"', () => {
    const none = [
      'User-agent: FooBot\nContent-Signal: ai-train=yes\nDisallow: /\nAllow: /public/\n',
      'User-agent: FooBot\nContent-Signal: ai-train=yes\nDisallow: /private/\n',
      'User-agent: FooBot\nContent-Signal: ai-train=yes\nDisallow: /\n\nUser-agent: FooBot\nAllow: /open\n',
      'User-agent: FooBot\nUser-agent: BarBot\nContent-Signal: ai-train=yes\nDisallow: /\n\nUser-agent: BarBot\nAllow: /\n',
      'User-agent: FooBot\nContent-Signal: ai-train=no\nDisallow: /\n',
      // Cloudflare's `*` group (Allow: /) and a site's `*` group that disallows everything merge: the allow wins the tie.
      'User-agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: *\nDisallow: /\n',
    ];
    for (const body of none) expect(messages(body, 'usage-contradicts-rules'), body).toEqual([]);
  });

  it('a "*" group: every crawler no group names gets its rules merged with the other "*" groups', () => {
    const body = 'User-agent: *\nContent-Signal: ai-train=yes\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n';
    expect(found(body).filter((f) => f[1] === 'usage-contradicts-rules')).toEqual([[2, 'usage-contradicts-rules', 'warning']]);
  });
});

describe('crawler names', () => {
  it('agent-not-product-token: a name cut inside a word is read as another crawler (AI2Bot is "AI"); none at all names no crawler', () => {
    const body = 'User-agent: AI2Bot\nUser-agent: bigsur.ai\nUser-agent: 360Spider\nUser-agent: *bot\nUser-agent: MJ12bot\nUser-agent: Bötchen\nDisallow: /\n';
    expect(found(body).map((f) => f[1])).toEqual(Array(6).fill('agent-not-product-token'));
    expect(messages(body, 'agent-not-product-token')).toEqual([
      [1, '"AI2Bot" is not a product token (letters, \'-\' and \'_\' only): Google\'s parser (and this one) read the line as "User-agent: AI", which names a crawler called AI, not AI2Bot; only a crawler that compares its whole name finds itself here'],
      [2, '"bigsur.ai" is not a product token (letters, \'-\' and \'_\' only): Google\'s parser (and this one) read the line as "User-agent: bigsur", which names a crawler called bigsur, not bigsur.ai; only a crawler that compares its whole name finds itself here'],
      [3, '"360Spider" is not a product token (letters, \'-\' and \'_\' only) and starts with none: crawlers find no name in this line, so the group applies to none of them'],
      [4, '"*bot" names no crawler: a user-agent line has no wildcards ("*" alone is every crawler no group names)'],
      [5, '"MJ12bot" is not a product token (letters, \'-\' and \'_\' only): Google\'s parser (and this one) read the line as "User-agent: MJ", which names a crawler called MJ, not MJ12bot; only a crawler that compares its whole name finds itself here'],
      [6, '"Bötchen" is not a product token (letters, \'-\' and \'_\' only): Google\'s parser (and this one) read the line as "User-agent: B", which names a crawler called B, not Bötchen; only a crawler that compares its whole name finds itself here'],
    ]);
    // What it warns of: the group is the crawler "AI"'s, and not AI2Bot's (compared whole under google).
    const robots = parse(body, { profile: 'google' });
    expect([robots.isAllowed('/x', 'AI'), robots.isAllowed('/x', 'AI2Bot'), robots.isAllowed('/x', 'MJ')]).toEqual([false, true, false]);
    // Product tokens and "*" are fine.
    expect(found('User-agent: GPTBot\nUser-agent: Googlebot-Image\nUser-agent: *\nUser-agent: * extra\nDisallow: /\n')).toEqual([]);
  });

  it('agent-with-version stays what it was for a version or a comment after the crawler\'s token', () => {
    const body = 'User-agent: iaskspider/2.0\nUser-agent: Brightbot 1.0\nUser-agent: FooBot (+https://foo.example)\nUser-agent: Mediapartners-Google*\nUser-agent: Yahoo! Slurp\nUser-agent: Bot.\nDisallow: /\n';
    expect(found(body)).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'agent-with-version', 'warning']));
    expect(lint(body).findings[3].message).toBe('only the product token "Mediapartners-Google" of this user-agent is matched: write "User-agent: Mediapartners-Google"');
  });

  it('the shipped AI crawler list: its 21 names that are not product tokens are the lines flagged, each once', () => {
    const notTokens = AI_CRAWLERS.filter((c) => !isProductToken(c.name));
    expect(notTokens).toHaveLength(21);
    const body = AI_CRAWLERS.map((c) => `User-agent: ${c.name}\nDisallow: /\n`).join('\n');
    const flagged = lint(body).findings.filter((f) => f.code === 'agent-with-version' || f.code === 'agent-not-product-token');
    // Line 3n+1 is the nth crawler's user-agent line.
    expect(flagged.map((f) => AI_CRAWLERS[(f.line - 1) / 3].name)).toEqual(notTokens.map((c) => c.name));
    // Those cut inside a word name another crawler; the others are a name and a version or more words.
    expect(flagged.filter((f) => f.code === 'agent-not-product-token').map((f) => AI_CRAWLERS[(f.line - 1) / 3].name)).toEqual([
      'AI2Bot', 'AI2Bot-DeepResearchEval', 'Ai2Bot-Dolma', 'bigsur.ai', 'Channel3Bot', 'Crawl4AI', 'img2dataset', 'panscient.com', 'quillbot.com',
    ]);
  });

  it('merged-global-groups: each "*" group after the first says that they merge', () => {
    const body = 'User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: BarBot\nUser-agent: *\nAllow: /c\n';
    expect(messages(body, 'merged-global-groups')).toEqual([
      [7, 'a second "User-agent: *" group (the first is at line 1): crawlers merge them, so the rules and use preferences of both apply together to every crawler no group names'],
      [11, 'a second "User-agent: *" group (the first is at line 1): crawlers merge them, so the rules and use preferences of both apply together to every crawler no group names'],
    ]);
    expect(messages('User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /\n', 'merged-global-groups')).toEqual([]);
  });
});

describe('Cloudflare’s managed robots.txt', () => {
  it('lints clean but for its two "*" groups, which merge', () => {
    const second = CLOUDFLARE.split('\n').lastIndexOf('User-agent: *') + 1;
    const first = CLOUDFLARE.split('\n').indexOf('User-Agent: *') + 1;
    expect(lint(CLOUDFLARE).findings).toEqual([
      { line: second, severity: 'warning', code: 'merged-global-groups', message: `a second "User-agent: *" group (the first is at line ${first}): crawlers merge them, so the rules and use preferences of both apply together to every crawler no group names` },
    ]);
  });
});

describe('long keys and values in messages (issue 42 item 7)', () => {
  // (Before: a Content-Usage key was shown whole, one message line of 16,762 characters; Content-Signal's cut at 60.)
  const key = 'k' + 'a'.repeat(16_000);
  const cut = `"k${'a'.repeat(59)}…"`;

  it('an unknown key of either field is cut the same way: its first 60 characters and "…"', () => {
    const body = `User-agent: *\nContent-Usage: ${key}=n\nContent-Signal: ${key}=no\nAllow: /\n`;
    expect(messages(body, 'unknown-usage-key')).toEqual([
      [2, `Content-Usage key ${cut} means nothing to crawlers: it is a label of no AIPREF draft (draft-ietf-aipref-vocab-08's labels are search, train-ai and ai-use, e.g. "train-ai=n")`],
      [3, `Content-Signal key ${cut} means nothing to crawlers (the signals are search, ai-input and ai-train)`],
    ]);
  });

  it('every finding on a long line stays short: the fix it suggests is cut too', () => {
    const long = `User-agent: *\nContent-Usage: Train-ai=n, ${key}=n\nContent-Usage: *.pdf ${key}=n\nContent-Usage: /a search=y, ${key}=maybe, search=maybe\n`;
    for (const f of lint(long).findings) expect(f.message.length, f.code).toBeLessThan(400);
  });

  it('shownText: short texts whole; longer ones cut at 60 characters, never inside a surrogate pair', () => {
    expect(shownText('a'.repeat(60))).toBe('a'.repeat(60));
    expect(shownText('a'.repeat(61))).toBe(`${'a'.repeat(60)}…`);
    expect(shownText(`${'a'.repeat(59)}😀😀`)).toBe(`${'a'.repeat(59)}…`);
    expect(shownText(`${'a'.repeat(58)}😀😀`)).toBe(`${'a'.repeat(58)}😀…`);
  });
});

describe('one reading of Content-Usage: lint() and usage() agree member by member', () => {
  // Values made of the pieces that matter: labels, legacy and unknown keys, capitals, y/n and other values, parameters, commas.
  const piece = fc.constantFrom('search', 'train-ai', 'ai-use', 'Train-ai', 'tdm', 'ai-train', '=', 'y', 'n', 'yes', '?1', '"n"', ',', ', ', ';p=1', ' ');
  it('a member lint() finds nothing to say of is one usage() maps to a purpose, and the other way round (a value no Dictionary: one of each)', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), (pieces) => {
        const value = pieces.join('');
        if (/^[ \t]|[ \t]$/.test(value)) return; // (robots.txt trims a line's value)
        const body = `User-agent: *\nContent-Usage: ${value}\nAllow: /\n`;
        const said = parse(body).usage('https://example.com/', 'FooBot').signals.filter((s) => s.field === 'content-usage');
        const findings = lint(body).findings.filter((f) => f.line === 2 && f.code !== 'usage-contradicts-rules');
        expect(findings.length).toBe(said.filter((s) => s.purpose === undefined).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('one reading of Content-Signal: lint() and usage() agree item by item', () => {
  // Items made of the pieces that matter: known and unknown keys, yes/no and other values, case, spaces and tabs, no "=".
  const piece = fc.constantFrom('search', 'ai-train', 'AI-Input', 'train-ai', 'use', 'tdm', 'yes', 'No', 'y', '', ' ', '\t', '=', '==', 'K');
  const item = fc.array(piece, { maxLength: 5 }).map((p) => p.join(''));
  it('an item lint() finds nothing to say of is one usage() maps to a purpose, and the other way round', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 4 }), (items) => {
        const value = items.join(',');
        if (/^[ \t]|[ \t]$/.test(value) || value.includes('#')) return; // (robots.txt trims a line's value; # starts a comment)
        const body = `User-agent: *\nContent-Signal: ${value}\nAllow: /\n`;
        const said = parse(body).usage('https://example.com/', 'FooBot').signals.filter((s) => s.field === 'content-signal');
        const findings = lint(body).findings.filter((f) => f.line === 2 && f.code !== 'usage-contradicts-rules');
        // Each item usage() reads and maps to no purpose is one finding of lint()'s; one it maps, none.
        expect(findings.length).toBe(said.filter((s) => s.purpose === undefined).length);
      }),
      { numRuns: 300 },
    );
  });
});
