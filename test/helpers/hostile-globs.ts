// A hostile robots.txt for the audit's glob matching (issue 41): n allows of a
// run of `run` a's after `/b{i}`, then n disallows of the run after a star,
// ending in `b{i}`. Every allow's path is a witness candidate that the
// disallows are compared with before the first disallow's own path proves
// `part`; a glob that backtracks to its star compares the run again from each
// octet of the path: run² steps a comparison.
export function hostileRobotsTxt(run: number, n: number): string {
  const a = 'a'.repeat(run);
  const lines = ['User-agent: *'];
  for (let i = 0; i < n; i++) lines.push(`Allow: /b${i}${a}`);
  for (let i = 0; i < n; i++) lines.push(`Disallow: /*${a}b${i}`);
  return lines.join('\n') + '\n';
}
