// Generated robots.txt files and URL lists, the same on every run (seeded PRNG).
const encoder = new TextEncoder();

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same list in an order of its own, the same each run (a crawl log's hosts interleaved). */
export function shuffled(list, seed = 12345) {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export function robotsFile(text, origin = 'https://bench.example') {
  return { text, bytes: encoder.encode(text), origin };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'xe', 'ze', 'qu'];

function vocabulary(random, size) {
  const words = new Set();
  while (words.size < size) {
    let w = '';
    const n = 2 + Math.floor(random() * 3);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

const pick = (random, list) => list[Math.floor(random() * list.length)];
const EXTENSIONS = ['.html', '.pdf', '.jpg', '.php', '.json'];

/**
 * A large robots.txt: one `User-agent: *` group of `rules` allow/disallow lines
 * over a 300-word vocabulary, every third one with wildcards (`*`, some ending in
 * `$`), and `count` URLs over the same words, so that many rules match.
 */
export function largeSynthetic({ rules, count, seed = 20000 }) {
  const random = seededRandom(seed);
  const words = vocabulary(random, 300);
  const lines = ['User-agent: *'];
  for (let i = 0; i < rules; i++) {
    const depth = 1 + Math.floor(random() * 3);
    const segments = Array.from({ length: depth }, () => pick(random, words));
    let pattern = '/' + segments.join('/');
    if (i % 3 === 0) {
      const shape = Math.floor(random() * 3);
      if (shape === 0) pattern = '/' + segments[0] + '/*' + pick(random, EXTENSIONS) + '$';
      else if (shape === 1) pattern = '/*/' + segments.join('/*/');
      else pattern += '*?' + pick(random, words) + '=';
    }
    lines.push(`${random() < 0.25 ? 'Allow' : 'Disallow'}: ${pattern}`);
  }
  const file = robotsFile(lines.join('\n') + '\n');
  const urls = new Array(count);
  for (let i = 0; i < count; i++) {
    const depth = 1 + Math.floor(random() * 4);
    let path = '';
    for (let d = 0; d < depth; d++) path += '/' + pick(random, words);
    if (random() < 0.3) path += pick(random, EXTENSIONS);
    if (random() < 0.3) path += `?${pick(random, words)}=${Math.floor(random() * 1000)}`;
    urls[i] = file.origin + path;
  }
  return { file, urls };
}

/**
 * A robots.txt built to be slow: `rules` patterns of many `*` between short runs
 * of `a`/`b`, most anchored with `$` or ending in an octet the URLs never have
 * (so that a backtracking matcher tries every split), and `count` URLs whose
 * paths are `length` octets of `a`/`b`.
 */
export function pathologicalSynthetic({ rules, count, length, seed = 16384 }) {
  const random = seededRandom(seed);
  const run = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.5 ? 'a' : 'b')).join('');
  const lines = ['User-agent: *'];
  for (let i = 0; i < rules; i++) {
    const stars = 6 + Math.floor(random() * 10);
    let pattern = '/';
    for (let s = 0; s < stars; s++) pattern += '*' + run();
    pattern += i % 2 === 0 ? '$' : '*c';
    lines.push(`Disallow: ${pattern}`);
  }
  const file = robotsFile(lines.join('\n') + '\n');
  const urls = Array.from({ length: count }, () => {
    let path = '/';
    while (path.length < length) path += random() < 0.5 ? 'a' : 'b';
    return file.origin + path;
  });
  return { file, urls };
}
