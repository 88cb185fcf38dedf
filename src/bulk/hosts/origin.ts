// A URL's origin as bulk's sources are keyed by it: the robots.txt of a
// directory, of a WARC capture, of an index shard is found by these parts.

/** A URL's origin: its host as urlOrigin() names it, the lower-cased scheme
 * ('' after a bare `//`) and the port as written ('' when none). */
export interface Origin {
  host: string;
  scheme: string;
  port: string;
}
