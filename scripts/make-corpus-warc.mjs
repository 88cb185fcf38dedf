// Writes corpus/robotstxt.warc.gz, the bundled WARC of robots.txt captures that
// the README's audit example reads (robots classify --robots-warc): the sites of
// corpus/robots/ as a crawl met them, gzip per record as Common Crawl writes its
// robots.txt WARCs. news.example, wildcards.example and hostile.example as they
// are (news.example has AIPREF Content-Usage rules); shop.example served behind
// Cloudflare's managed robots.txt (its Content-Signal block before the site's
// own); wordpress.example answered 404 (no robots.txt: all allowed);
// nothing.example not captured. Run again after changing corpus/robots/.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { WARCRecord, WARCSerializer } from 'warcio';

const corpus = fileURLToPath(new URL('../corpus/', import.meta.url));
const CLOUDFLARE = '# As a condition of accessing this website, you agree to abide by the following content signals:\n' +
  '# (a)  If a content-signal = yes, you may collect content for the corresponding use.\n' +
  '# (b)  If a content-signal = no, you may not collect content for the corresponding use.\n' +
  '# (c)  If the website operator does not include a content signal for a corresponding use, the website operator neither grants nor restricts permission via content signal with respect to the corresponding use.\n' +
  'User-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n';
const file = (host) => readFileSync(`${corpus}robots/${host}`);
const captures = [
  { host: 'news.example', body: file('news.example') },
  { host: 'shop.example', body: Buffer.concat([Buffer.from(CLOUDFLARE), file('shop.example')]) },
  { host: 'wildcards.example', body: file('wildcards.example') },
  { host: 'hostile.example', body: file('hostile.example') },
  { host: 'wordpress.example', status: 404, body: Buffer.from('<h1>Not Found</h1>\n') },
];
const parts = [];
for (const c of captures) {
  const record = await WARCRecord.create(
    { url: `https://${c.host}/robots.txt`, date: '2026-11-01T00:00:00Z', type: 'response', statusline: `HTTP/1.1 ${c.status ?? 200} ${c.status === 404 ? 'Not Found' : 'OK'}`, httpHeaders: { 'Content-Type': 'text/plain' } },
    (async function* () { yield c.body; })(),
  );
  parts.push(await WARCSerializer.serialize(record, { gzip: true }));
}
writeFileSync(`${corpus}robotstxt.warc.gz`, Buffer.concat(parts));
