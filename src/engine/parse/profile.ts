// The profile: whose reading of robots.txt the engine follows (docs/glossary.md).
// `rfc` is RFC 9309 read strictly, with RFC 3986 normalisation (the default of
// parse() and the CLI); `google` is Google's open-source parser (robotstxt,
// robots.cc) bit for bit (the default of robots-wasm/compat). Everything the
// profile changes is one trait below: code reads the trait, never compares
// the profile's name, so this table is the one list of the differences.
import { FLAG_GOOGLE, FLAG_RFC } from '../wasm/layout.js';

export type Profile = 'rfc' | 'google';

/** The profiles, in the order error messages name them. */
export const PROFILES: readonly Profile[] = Object.freeze(['rfc', 'google']);

/** The profile of parse(), RobotsCache and the CLI when none is given (robots-wasm/compat defaults to google). */
export const DEFAULT_PROFILE: Profile = 'rfc';

export function isProfile(value: unknown): value is Profile {
  return value === 'rfc' || value === 'google';
}

/** A profile from an untrusted value (a form field, a link's state): the value
 * when it names one, else `fallback`. */
export function profileOr(value: unknown, fallback: Profile): Profile {
  return isProfile(value) ? value : fallback;
}

export interface ProfileTraits {
  /**
   * rfc: the URL's path and the rules' patterns are compared in RFC 3986's
   * normal form (%XX of an unreserved character decoded, hex upper-cased,
   * octets a URI may not hold raw escaped: RFC 9309 2.2.2 has both sides
   * percent-encoded and decoded so before they are compared), and the URL's
   * dot segments removed (RFC 3986 6.2.2.3: the path a fetch requests; a
   * pattern's stay as written). google: as written, a pattern
   * Google-escaped (octets >= 0x80 as %XX). Applied by the core (FLAG_RFC:
   * assembly/match/decide.ts, normalize.ts, dot-segments.ts; the tokenizer's `rfc` argument,
   * src/engine/compile/compile.ts), by reference.ts and by explanation.ts.
   */
  readonly normalises: boolean;
  /**
   * rfc: /robots.txt itself is always allowed (RFC 9309 2.2.2: "the
   * /robots.txt URI is implicitly allowed"). google: its rules decide, as for
   * any path. Applied by the core (FLAG_RFC: assembly/match/decide.ts) and by reference.ts.
   */
  readonly allowsRobotsTxt: boolean;
  /**
   * google: the path ends at its first NUL octet (robots.cc reads it as a C
   * string). rfc: a NUL is an octet like another (escaped when normalised).
   * Applied by the core (FLAG_GOOGLE: assembly/parse/path.ts, batch.ts, classify.ts) and by reference.ts.
   */
  readonly pathEndsAtNul: boolean;
  /**
   * google: an allow whose last segment starts with `/index.htm` also allows
   * its directory exactly (robots.cc's index.html rule). rfc: no such rule.
   * Applied by src/engine/compile/compile.ts (a companion rule) and reference.ts.
   */
  readonly indexHtmAllowsDirectory: boolean;
  /**
   * rfc: every name of an agent must be a product token (RFC 9309 2.2.1:
   * letters, '-' and '_'), else a TypeError. google: any string, compared
   * whole, as robots.cc does (a name that is no token names no group).
   * Applied by src/engine/parse/agents.ts (agentTokens, agentNotes).
   */
  readonly requiresProductTokens: boolean;
  /**
   * rfc: each sitemap URL once (this engine's reading: RFC 9309 2.2.4 only
   * lets a crawler read such other records, and a repeat names nothing new).
   * google: one per Sitemap line, repeats kept, as robots.cc reports them.
   * Applied by RobotsTxt.sitemaps (src/engine/robots-txt.ts).
   */
  readonly sitemapsOnce: boolean;
  /**
   * google: Googlebot does not obey Crawl-delay (Google's documentation), so
   * the tester page says so beside a delay. rfc: RFC 9309 defines no
   * Crawl-delay; a delay is shown as written. Applied by web/app.ts.
   */
  readonly crawlDelayIgnored: boolean;
  /**
   * rfc: a Content-Usage line is a rule (draft-ietf-aipref-attach-05 section 3:
   * `rule =/ content-usage`), so, as an Allow or Disallow does (RFC 9309 2.2),
   * it ends its group's user-agent lines: a user-agent line after it starts a
   * new group. google: an other record, as for Google's parser, which does not
   * know the key (the user-agent lines around it are one group). Content-Signal
   * (Cloudflare's, not in RFC 9309's grammar) is an other record in both.
   * Applied by src/engine/parse/records.ts (readRecords) and the core's
   * selector (assembly/parse/select.ts, through rule-selection.ts's selectRules).
   */
  readonly contentUsageIsRule: boolean;
  /** The matcher header's FLAG_* bits that make the core apply the traits
   * above (src/engine/wasm/layout.ts): FLAG_RFC for normalises and
   * allowsRobotsTxt, FLAG_GOOGLE for pathEndsAtNul. */
  readonly matcherFlags: number;
}

export const PROFILE_TRAITS: Readonly<Record<Profile, ProfileTraits>> = Object.freeze({
  rfc: Object.freeze({
    normalises: true,
    allowsRobotsTxt: true,
    pathEndsAtNul: false,
    indexHtmAllowsDirectory: false,
    requiresProductTokens: true,
    sitemapsOnce: true,
    crawlDelayIgnored: false,
    contentUsageIsRule: true,
    matcherFlags: FLAG_RFC,
  }),
  google: Object.freeze({
    normalises: false,
    allowsRobotsTxt: false,
    pathEndsAtNul: true,
    indexHtmAllowsDirectory: true,
    requiresProductTokens: false,
    sitemapsOnce: false,
    crawlDelayIgnored: true,
    contentUsageIsRule: false,
    matcherFlags: FLAG_GOOGLE,
  }),
});

/** The traits of a profile (checked by the caller: see isProfile). */
export function traitsOf(profile: Profile): ProfileTraits {
  return PROFILE_TRAITS[profile];
}
