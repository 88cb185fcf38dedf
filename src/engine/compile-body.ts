// compile(): a crawler's first verdict in one call. parse() keeps the file for
// every question it may be asked (explain's rule texts, usage(), lint, the
// groups), so it keeps a copy of the body besides the core's; a crawler keeps one
// Matcher per host and asks nothing else of the file (RobotsCache keeps no
// more). compile() makes only that Matcher: the body is read during the call,
// copied once, into the core, and nothing else of the file is made or kept
// (a first verdict over the corpus ~1.15x as fast as parse().compile(): docs/benchmarks.md).
import { compileOctets, type ParseOptions } from './robots-txt.js';
import type { Matcher, MatcherOptions } from './match/matcher.js';

/** compile()'s options: parse()'s and RobotsTxt.compile()'s. */
export type CompileOptions = ParseOptions & Pick<MatcherOptions, 'maxDfaBytes' | 'coldOctets'>;

/**
 * The rules of `body` for `agent` (a product token, or the names of one crawler), compiled into a Matcher:
 * `parse(body, options).compile(agent, options)` without the parsed file. The caller may change or reuse
 * `body` once it returns; the Matcher is the caller's (dispose() frees it at once).
 */
export function compile(body: string | Uint8Array, agent: string | readonly string[], options: CompileOptions = {}): Matcher {
  const { maxDfaBytes, coldOctets } = options ?? {}; // (options that are not an object: compileOctets says so, as parse() does)
  // (No object where neither is given, as most crawlers call it: a small file's compile is a few µs.)
  return compileOctets(body, options, agent, maxDfaBytes === undefined && coldOctets === undefined ? undefined : { maxDfaBytes, coldOctets });
}
