// Byte layouts in WASM linear memory: a compiled matcher's, and the records of
// bulk classification's lines (at the end). Shared by the TypeScript side (src/)
// and the AssemblyScript core (assembly/), so the two sides can never disagree:
// both import these plain numeric constants.

/** Offsets (bytes) of the u32 fields of a matcher header. */
export const H_FLAGS = 0; // FLAG_* bits below
export const H_ROWS_USED = 4; // octets of the rows (from H_TRANS) that hold states: what checkMany touches first (batch.ts)
export const H_CLASSMAP = 8; // ptr: 256 bytes, byte -> class
export const H_TRANS = 12; // ptr: the state rows (see INFO_* and ENTRY_* below)
export const H_HOT_URLS = 16; // URLs the DFA walked since its tables were last cleared (its cost per URL: dfa.ts)
export const H_START = 20; // start state entry (row | ENTRY_* bits)
export const H_POSITIVE = 24; // rule ids below this have a priority above 0 (ids are ranks: see compile.ts)
export const H_OUT_ALLOW = 28; // out: best allow rule id of the last match (NO_RULE if none)
export const H_OUT_DISALLOW = 32; // out: best disallow rule id of the last match
export const H_LINES = 36; // ptr: u32 robots.txt line per rule id
export const H_TEXTS = 40; // ptr (0: none): per rule id a u32 offset and length of its text ("Disallow: /a") from here
export const H_TEXTS_MAX = 44; // the longest of those texts, octets
export const H_LITERAL_TRIE = 48; // ptr (0: none): rule mode's trie of its rules without `*` (N_* below)
export const H_COLD = 52; // octets the matcher still walks cold (its rule list, H_RULES); 0: hot (the DFA)
export const H_RULES = 56; // ptr (0: none): a rule list (RM_* below): a cold matcher's rules, or rule mode's `*` rules
export const H_BUILDER = 60; // the host's: where its builder (src/engine/match/dfa.ts) is in the host's list (src/engine/wasm/core.ts register)
export const HEADER_SIZE = 64;
/** Not a matcher's address: bulk classification's "robots.txt unreachable,
 * every URL disallowed" (0 is "no robots.txt, every URL allowed"). */
export const UNREACHABLE_MATCHER = 1;

/** Header flags. */
export const FLAG_RFC = 1; // normalise the path (RFC 3986, dot segments removed) and always allow /robots.txt
export const FLAG_GOOGLE = 2; // Google's path quirks: the path ends at the first NUL
export const FLAG_WIDE = 4; // transition entries are u32 (WIDE_*), else u16 (ENTRY_*)
export const FLAG_RULES = 8; // rule mode: no DFA (it thrashed); the literal trie (H_LITERAL_TRIE, no `*` nodes), the `*` rules (H_RULES) its nodes lead to, and the gram index's

/** A state's row: its accept data (four u32 rule ids, NO_RULE when none), then
 * one transition entry per byte class. Rows are ROW_ALIGN-aligned, state 0's is
 * unused (entry 0 means "not built yet"). */
export const INFO_STICKY_ALLOW = 0; // best allow rule completed on entering the state
export const INFO_STICKY_DISALLOW = 4;
export const INFO_END_ALLOW = 8; // best end-anchored allow rule, if the path ends here
export const INFO_END_DISALLOW = 12;
export const INFO_SIZE = 16;
export const ROW_ALIGN = 8;

/** A transition entry holds the target's row offset from H_TRANS in ROW_ALIGN
 * units, so that a step is a shift, an add and a load (no multiply) and the
 * row's accept data sits beside its entries. Entries are u16 while the rows
 * fit in 14 bits of units (small tables stay in cache: a corpus walk is bound
 * by cache misses); past that the matcher starts over with u32 entries (FLAG_WIDE). */
export const ENTRY_SPECIAL = 0x8000; // target has sticky accepts: read its info
export const ENTRY_DEAD = 0x4000; // target can never change the verdict: stop walking
export const ENTRY_ROW_MASK = 0x3fff;
export const WIDE_SPECIAL = 0x80000000;
export const WIDE_DEAD = 0x40000000;
export const WIDE_ROW_MASK = 0x3fffffff;
/** Octets of rows that u16 entries can address. */
export const NARROW_ROWS_LIMIT = (ENTRY_ROW_MASK + 1) * ROW_ALIGN;
/** States per matcher before its tables are cleared. */
export const MAX_STATES = 0x3fff;

export const NO_RULE = 0xffffffff;

/** Rule mode's trie of its rules without `*` (see trie.ts) in the core, one
 * block: a header of the fields below (ptrs), then the arrays. Its terminals
 * are four u32 rule ids each, in the order of a row's INFO_* fields. */
export const N_CHILD_START = 0; // ptr: i32[nodes + 1]
export const N_CHILD_TOK = 4; // ptr: u8 per octet child
export const N_CHILD_NODE = 8; // ptr: i32 per octet child
export const N_TERM = 12; // ptr: i32[nodes], index into N_TERMS or -1
export const N_TERMS = 16; // ptr: u32[4] per terminal
export const N_TAILS = 20; // ptr (0: none): per terminal NT_* below: the `*` rules whose literal head ends on its node
export const N_HEADER = 24;
/** A terminal's `*` rules (N_TAILS): entries [first, end) of rule mode's list (rank order), whose first `known` octets are the node's path. */
export const NT_FIRST = 0;
export const NT_END = 4;
export const NT_KNOWN = 8;
export const NT_SIZE = 12;
/** A rule list (H_RULES): a count and the fields below, then one entry per
 * rule, then the rules' tokens, an octet each (RULE_LIST_STAR for `*`; a cold
 * matcher's in file order, or by rank, and most in its values instead: RM_OCTETS). A cold matcher's list holds all its rules in rank
 * order (best first); rule mode's, the rules with `*` (its others are a trie:
 * H_LITERAL_TRIE), by the trie node their head ends on, each node's in rank
 * order, then the gram index's (assembly/compile/star-plan.ts). */
export const RM_COUNT = 0;
export const RM_OCTETS = 4; // a cold list's: octets of tokens in its block (a rule whose tokens are its value's first octets reads them there, in the matcher's block: assembly/compile/cold-list.ts)
export const RM_SIGNATURES = 8; // ptr (0: none): per entry a u32, the buckets (octet & 31) of the octets its pattern names; 0 for none to test
export const RM_INDEX = 12; // ptr (0: none): a cold list's index of its rules by their literal heads (RI_* below)
export const RM_WORK = 16; // a cold list's: work its walks may do before the host reviews it (0: no reviews)
export const RM_URLS = 20; // a cold list's: URLs walked since the last review
export const RM_GRAMS = 24; // ptr (0: none): rule mode's gram index (G_* below), in the list's block
export const RM_HEADER = 32;
export const RE_ID = 0; // its rule id (rank)
export const RE_FLAGS = 4; // RE_* bits below
export const RE_TOKENS = 8; // ptr: its tokens
export const RE_LENGTH = 12; // tokens (no terminal)
export const RE_SIZE = 16;
export const RE_ANCHORED = 1; // ends with `$`
export const RE_DISALLOW = 2;
/** RE_FLAGS bits 2-4: how many of the pattern's first octets (at most 4) are
 * literal, before any `*`: a path must start with them, which one word test
 * checks before the rule is matched (most rules fail there). */
export const RE_HEAD_SHIFT = 2;
export const RE_HEAD_MAX = 4;
/** Readable octets a rule list keeps past its tokens (a head is read as a word). */
export const RE_TOKEN_SLACK = 4;
/** A cold list's index (RM_INDEX; assembly/match/cold-index.ts writes and walks it): the distinct literal heads of its rules
 * (their octets before any `*`, at most COLD_HEAD_MAX) in octet order, each
 * with the nearest head before it that is its prefix, and the entries of the
 * rules with that head (rank order). A path meets only the rules whose head
 * it starts with: the heads on one chain of parents. */
export const RI_HEADS = 0; // u32: heads
export const RI_HEADER = 4;
export const RH_TOKENS = 0; // ptr: its octets (a rule's tokens)
export const RH_LENGTH = 4; // octets
export const RH_PARENT = 8; // i32: the head that is its longest prefix, or -1
export const RH_FIRST = 12; // its rules: entry numbers [first, end) of the u32 list after the heads
export const RH_END = 16;
export const RH_SIZE = 20;
export const COLD_HEAD_MAX = 32;
/** Rule mode's gram index (RM_GRAMS; assembly/match/rule-mode.ts walks it): the `*` rules whose literal head is
 * shared by too many to try them all (most often `/`), each found by one 4-octet gram of its
 * literal segments past the head, the rarest of its own (Hyperscan's way: a literal found, then
 * the rule verified). Buckets by the gram's hash (GRAM_HASH, the top G_BITS bits), each a run of
 * GE_* entries; a rule is verified only when the path has, by a 64-bit filter of its 4-grams
 * (GRAM_FILTER_HASH, top 6 bits; G_FILTERS), all the grams of its segments. */
export const G_BITS = 0; // u32: log2 of the buckets
export const G_START = 4; // ptr: u32[buckets + 1], the first entry of each bucket
export const G_ENTRIES = 8; // ptr: the entries
export const G_FIRST = 12; // u32: the list's entry of its first rule (its rules are the list's last, in rank order)
export const G_SEEN = 16; // ptr: a bit per rule, zero between walks: the rules a walk found (each verified once, best first)
export const G_FILTERS = 20; // ptr: a u64 per rule, the bits of all its grams (GRAM_FILTER_HASH)
export const G_HEADER = 24;
export const GE_GRAM = 0; // u32: the gram's four octets (little-endian)
export const GE_RULE = 4; // u32: its rule, from G_FIRST
export const GE_SIZE = 8;
export const GRAM_HASH = 0x9e3779b1;
export const GRAM_FILTER_HASH = 0x85ebca6b;
/** buildTransition's row for a cold matcher's review (its walks did the work RM_WORK allowed): cls is the URLs walked since the last one. */
export const COLD_REVIEW_ROW = 0xffffffff;
/** A review's answer: index the list now (assembly/match/cold-index.ts indexColdList); 0: nothing to do here. */
export const COLD_INDEX_NOW = 1;

/** `*` in a rule list's octets: a pattern's octet 0x2A is always its wildcard
 * (the tokenizer writes a literal one as %2A), so the octet is free to mean it. */
export const RULE_LIST_STAR = 0x2a;


/** NFA tokens past the octets 0..255 (the compiler writes them, the trie reads
 * them): `*`, the end of a pattern without `$` (matched), and with `$`. */
export const TOKEN_STAR = 256;
export const TOKEN_ACCEPT = 257;
export const TOKEN_ANCHOR = 258;

/** Bulk classification (assembly/bulk/classify.ts splitLines, read by src/bulk/):
 * octets of one line record, and its fields (i32 each, offsets in octets):
 * where the line starts in the block and its length, where its host starts
 * (in the block) and its length. */
export const LINE_RECORD = 16;
export const LINE_START = 0;
export const LINE_LENGTH = 4;
export const LINE_HOST_START = 8;
export const LINE_HOST_LENGTH = 12;
/** Octets of one run record (consecutive lines of one origin), and its fields:
 * its first line, two 32-bit hashes of the lower-cased host (both 0 when the
 * line names none), and one of the scheme and port. An even hash1 (not 0) flags
 * a host to canonicalise (src/bulk/classify/origin-runs.ts rewrites the record). */
export const RUN_RECORD = 16;
export const RUN_FIRST_LINE = 0;
export const RUN_HOST_HASH1 = 4;
export const RUN_HOST_HASH2 = 8;
export const RUN_ORIGIN_HASH = 12;

/** Most crawlers one bulk classification gives a verdict each (--crawlers):
 * the core keeps a verdict per crawler of a line in a fixed array of this size. */
export const CLASSIFY_MAX_CRAWLERS = 256;
/** With use purposes (classify --crawlers, JSON lines or --usage): a crawler's
 * purposes for the URLs it may fetch as one u32, USAGE_BITS a purpose in
 * PURPOSES' order (search, train-ai, ai-use), each a PREFERENCE_* below. */
export const USAGE_BITS = 2;
/** A purpose's preference as a number: in the core's purpose codes (above),
 * bulk's (src/bulk/classify/purpose-codes.ts) and the page's chunks (web/protocol.ts),
 * through src/engine/usage/preference-codes.ts on the TypeScript side. Disallowed is
 * the largest: combining two statements keeps the larger (control-codes.ts). */
export const PREFERENCE_UNKNOWN = 0;
export const PREFERENCE_ALLOWED = 1;
export const PREFERENCE_DISALLOWED = 2;
/** Octets a crawler's purposes add to a line at most, 8 of slack included (the
 * core writes words 8 octets at a time past their end): JSON's
 * `,"usage":{"search":…}` and TSV's three columns. */
export const USAGE_JSON_OCTETS = 96;
export const USAGE_TSV_OCTETS = 48;
/** With purposes, each slot of a classify call (a crawler, or an operator's
 * purpose) has a kind, k u32s after the codes and their counts: a crawler's
 * verdict alone, or with its purposes; an operator's word for purpose p
 * (yes/no from the verdict and code of its crawler for p), or `unknown` where
 * it has no crawler for p. */
export const SLOT_VERDICT = 0;
export const SLOT_PURPOSES = 1;
export const SLOT_OPERATOR = 2; // + p (0 search, 1 train-ai, 2 ai-use)
export const SLOT_NO_CRAWLER = 5; // + p

/** The lexer's line records (assembly/parse/lexer.ts writes them, src/engine/parse/lexer.ts
 * reads them): LEX_FIELDS i32s each, at these indices. Offsets are from the
 * start of the body. */
export const LEX_FIELDS = 8;
export const LEX_LINE = 0; // line number (1-based)
export const LEX_TYPE = 1; // LEX_TYPE_* below
export const LEX_KEY = 2; // the key's KEY_* kind, | KEY_TYPO when accepted as a typo or alias
export const LEX_FACTS = 3; // LINE_* bits below
export const LEX_KEY_START = 4; // (the line's start for an invalid line)
export const LEX_KEY_END = 5; // (the line's end for an invalid line)
export const LEX_VALUE_START = 6;
export const LEX_VALUE_END = 7;
/** Record types. */
export const LEX_TYPE_RECORD = 0; // a key and a value
export const LEX_TYPE_INVALID = 1; // content without the key/value form
export const LEX_TYPE_TRUNCATED = 2; // a line cut at LEX_MAX_LINE_OCTETS (reported even when nothing of it parsed)
/** Key kinds (Google's ParseKeyType, with content-usage, content-signal, license and llm-policy). */
export const KEY_USER_AGENT = 1;
export const KEY_ALLOW = 2;
export const KEY_DISALLOW = 3;
export const KEY_SITEMAP = 4;
export const KEY_CRAWL_DELAY = 5;
export const KEY_CONTENT_USAGE = 6;
export const KEY_UNKNOWN = 7;
export const KEY_CONTENT_SIGNAL = 8;
export const KEY_LICENSE = 9;
export const KEY_LLM_POLICY = 10;
export const KEY_KIND = 15; // the bits of the kind
export const KEY_TYPO = 16; // a bit beside the kind
/** Facts about a line, as bits: the core sets LINE_MISSING_COLON and
 * LINE_TOO_LONG; the TypeScript side adds LINE_TYPO (from KEY_TYPO) and LINE_INVALID_UTF8. */
export const LINE_TYPO = 1; // the key was accepted by an alias or a typo (`useragent`, `dissallow`, `site-map`, ...)
export const LINE_MISSING_COLON = 2; // key and value were separated by whitespace, not a colon
export const LINE_TOO_LONG = 4; // octets past LEX_MAX_LINE_OCTETS were dropped
export const LINE_INVALID_UTF8 = 8; // the line's octets are not valid UTF-8
/** Google keeps at most 2083 * 8 - 1 octets of a line (its buffer's last slot holds the NUL). */
export const LEX_MAX_LINE_OCTETS = 2083 * 8 - 1;

/** The selector's rules (assembly/parse/select.ts writes them, src/engine/parse/rule-selection.ts
 * reads them): SELECT_FIELDS i32s each, the first four as rule-selection.ts's SEL_*
 * (its `selected`), then the flags of the rule's group. The crawler's names go in
 * as an i32 count, then per name its length (i32) and its octets, in lower case. */
export const SELECT_FIELDS = 5;
export const SELECT_DISALLOW = 0; // 1 for a disallow
export const SELECT_LINE = 1;
export const SELECT_START = 2; // the value: body[start, end)
export const SELECT_END = 3;
export const SELECT_FLAGS = 4; // its group's flags, below
export const SELECT_NAMES_CRAWLER = 1; // a user-agent line of the group names the crawler
export const SELECT_GLOBAL = 2; // ... is `*`

/** The user-agent lines of records already read, as the host gives them to
 * assembly/parse/group-choice.ts groupsApplying (src/engine/parse/agents.ts
 * writes them): AGENT_FIELDS i32s a line; the names as the selector's (or, for
 * the compat entry's crawlers, an i32 count and the line numbers that name it). */
export const AGENT_FIELDS = 5;
export const AGENT_START = 0; // the value: the octets' [start, end)
export const AGENT_END = 1;
export const AGENT_LINE = 2;
export const AGENT_OWNER = 3; // the index of its group (or crawl-delay run)
export const AGENT_FLAGS = 4; // the core's scratch: the line's SELECT_* flags
/** groupsApplying's answer: the count of owners that apply, or'ed with this when they name the crawler (else they are the `*` ones). */
export const AGENT_CHOICE_NAMED = 0x40000000;
/** The most crawlers groupsApplyingEach chooses for in one call (a line's crawlers are bits of its AGENT_FLAGS). */
export const AGENT_EACH_CRAWLERS = 30;

/** The compiler's records (src/engine/compile/compile.ts writes and reads
 * them; assembly/parse/tokenize.ts tokenizeRules and gatherRuns read and write them):
 * a range of the body, its start and end (i32 each), per rule in; per rule
 * tokenized a result out, its first token and its priority | TOKENIZE_ANCHORED
 * (i32 each), then one i32 after the last result: the tokens written. */
export const RANGE_RECORD = 8;
export const TOKENIZE_RESULT = 8;
/** In a result of the cold list's tokenizer (assembly/parse/tokenize.ts tokenizeColdRules): the pattern ends with `$` (above the priority's bits). */
export const TOKENIZE_ANCHORED = 0x80000000;
/** ... and its tokens are not its value's first octets (a `**`, an escape, an octet escaped): the
 * others' a cold list reads from their values (assembly/compile/cold-list.ts). */
export const TOKENIZE_CHANGED = 0x40000000;

/** compileColdRules' results (assembly/compile/cold-list.ts; compile.ts reads them), u32
 * each: the matcher's block, its cold list, the values' octets, the ids below
 * which priorities are above 0, the list's tokens. */
export const COLD_COMPILE_BLOCK = 0;
export const COLD_COMPILE_LIST = 4;
export const COLD_COMPILE_VALUE_OCTETS = 8;
export const COLD_COMPILE_POSITIVE = 12;
export const COLD_COMPILE_TOKENS = 16;
export const COLD_COMPILE_RESULT = 20;
/** In a rule's value end (a matcher block's, rule-table.ts RuleTable.block): the rule is a disallow. */
export const RULE_VALUE_DISALLOW = 0x80000000;

/** Octets past the end of an input (a body, a URL, a batch's text) that the
 * core may read and the host keeps readable in the same block: the core scans
 * 16 octets at a time (one v128 load: scan.ts, batch.ts, tokenize.ts, utf8.ts). */
export const CORE_READ_SLACK = 16;
/** Octets past a token area's room that the tokenizer may write (16 u16 tokens at a time). */
export const TOKENS_WRITE_SLACK = 32;
/** Octets past a batch's UTF-16 that the core reads (16 units, one v128 of each half: batch.ts). */
export const UTF16_READ_SLACK = 32;

/** pathOf's record (assembly/index.ts, for tests: src/engine/match/core-path.ts):
 * where the path starts and ends in the URL, and whether a '/' goes before it (i32 each). */
export const PATH_START = 0;
export const PATH_END = 4;
export const PATH_SLASH = 8;
export const PATH_RECORD = 12;

/** The audit's witnesses in the core (assembly/bulk/audit-witness.ts, src/bulk/audit/core-witnesses.ts):
 * a set's answer, i32 each at these indices. A witness is AUDIT_WITNESS_ROOT (`/`), AUDIT_WITNESS_NONE,
 * or 2 * rule + 0 (the rule's literal octets) or + 1 (the same and the unnamed octet). */
export const AUDIT_CODE = 0;
export const AUDIT_ROOT_ALLOW = 1; // the best allow at `/` (a rule's index), -1 none
export const AUDIT_ROOT_DISALLOW = 2; // the best disallow at `/`, -1 none
export const AUDIT_ROOT_ALLOWED = 3; // 1: `/` allowed
export const AUDIT_ALLOWED_WITNESS = 4;
export const AUDIT_DISALLOWED_WITNESS = 5;
export const AUDIT_OTHER_OCTET = 6; // the octet a witness of + 1 ends with
export const AUDIT_STEPS = 7; // steps of glob matching taken (a count the tests bound the work by)
export const AUDIT_RESULT = 32; // octets of the answer
/** AUDIT_CODE: the category decided (none, all, part), or not (a witness missing, or the work bound met: the host decides). */
export const AUDIT_NONE = 0;
export const AUDIT_ALL = 1;
export const AUDIT_PART = 2;
export const AUDIT_UNDECIDED = 3;
export const AUDIT_WITNESS_NONE = -1;
export const AUDIT_WITNESS_ROOT = -2;
