/** One assertion of a peer's test suite: this body, agent and URL, this verdict. */
export interface PeerCase {
  source: 'robots-parser' | 'cpython' | 'protego';
  /** The peer's test (function or class) the assertion comes from. */
  test: string;
  robots: string;
  /** As the peer's API was given it ('*' and full User-Agent strings included). */
  agent: string;
  url: string;
  allowed: boolean;
}
