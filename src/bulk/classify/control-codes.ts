// A crawler's purpose code (purpose-codes.ts) with what the control tokens
// that speak for it state (engine/usage/control-tokens.ts's rule, as usage() counts
// them): a control token named by a group states its purposes `allowed` or
// `disallowed` by its verdict for the URL; one without a group of its own
// states `disallowed` where the `*` groups disallow the URL, nothing elsewhere.
// The code is read only where the crawler may fetch (the core writes all
// unknown elsewhere), so a token whose groups are the crawler's own states the
// same for every such URL: one code, no walk. Only a token of other groups is
// asked URL by URL, through its matcher, on the URL line's octets in the core.
import { type Matcher, PURPOSES } from '../../index.js';
import type { ControlTokenUse } from '../../engine/usage/control-tokens.js';
import { PREFERENCE_ALLOWED, PREFERENCE_DISALLOWED, USAGE_BITS } from '../../engine/wasm/layout.js';
import type { PurposeCode } from './classification.js';
import { core } from '../../engine/wasm/core.js';

/** A control token as a crawler's purposes read it. */
export interface ControlVerdict {
  use: ControlTokenUse;
  /** A group names the token. */
  named: boolean;
  /** Its matcher, or null when the groups that apply to it are the crawler's, or when its verdict is `always`. */
  matcher: Matcher | null;
  /** Its verdict for every URL, where its rules give one (no rule: true): stated once for the host, not asked URL by URL. */
  always?: boolean;
}

const FIELD = (1 << USAGE_BITS) - 1;

/** The code that states `preference` (PREFERENCE_ALLOWED or PREFERENCE_DISALLOWED) for each of the purposes. */
function stating(use: ControlTokenUse, preference: number): number {
  let code = 0;
  PURPOSES.forEach((p, i) => {
    if (use.purposes.includes(p)) code |= preference << (i * USAGE_BITS);
  });
  return code;
}

/** Two codes combined purpose by purpose: disallowed wins, then allowed (the larger field). */
export function combineCodes(a: number, b: number): number {
  if (a === 0 || a === b) return b;
  if (b === 0) return a;
  let code = 0;
  for (let i = 0; i < PURPOSES.length; i++) {
    const shift = i * USAGE_BITS;
    code |= Math.max((a >>> shift) & FIELD, (b >>> shift) & FIELD) << shift;
  }
  return code;
}

/** The crawler's code (`own`, from its groups' use lines) with the control tokens' statements. */
export function withControlTokens(own: PurposeCode, controls: readonly ControlVerdict[]): PurposeCode {
  let fixed = typeof own === 'number' ? own : 0;
  const byUrl: { matcher: Matcher; ifAllowed: number; ifDisallowed: number }[] = [];
  for (const c of controls) {
    const ifAllowed = c.named ? stating(c.use, PREFERENCE_ALLOWED) : 0;
    if (c.always !== undefined) fixed = combineCodes(fixed, c.always ? ifAllowed : stating(c.use, PREFERENCE_DISALLOWED));
    else if (c.matcher === null) fixed = combineCodes(fixed, ifAllowed); // (allowed where the crawler is)
    else byUrl.push({ matcher: c.matcher, ifAllowed, ifDisallowed: stating(c.use, PREFERENCE_DISALLOWED) });
  }
  if (byUrl.length === 0 && typeof own === 'number') return fixed;
  const ownAt = typeof own === 'number' ? null : own;
  const c = core();
  return {
    at(ptr, len, text) {
      let code = ownAt === null ? fixed : combineCodes(typeof ownAt === 'function' ? ownAt(text()) : ownAt.at(ptr, len, text), fixed);
      for (const t of byUrl) {
        // (The line's octets as the crawlers' verdicts read them; the check may grow the memory: the views then.)
        const allowed = c.exports.check(t.matcher.address, ptr, len) === 1;
        if (c.u8.length === 0) c.refresh();
        code = combineCodes(code, allowed ? t.ifAllowed : t.ifDisallowed);
      }
      return code;
    },
  };
}
