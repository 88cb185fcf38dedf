// Tester-page links (web/state.ts's format: '#s=' and base64url of raw DEFLATE
// of the state's JSON) for the tests, among them bombs: a JSON head, `mib`
// MiB of one character, and a tail. The MiB is deflated once, between two
// full flushes (no history before or after it, and whole octets), so its
// ~1 KB repeats to any size at once: 400 MiB take 553 KB of link.
import { constants, createDeflateRaw, deflateRawSync } from 'node:zlib';

export const linkOf = (deflated: Uint8Array): string => '#s=' + Buffer.from(deflated).toString('base64url');
export const linkOfJson = (json: string): string => linkOf(deflateRawSync(Buffer.from(json)));

export async function bombLink(head: string, char: string, mib: number, tail: string): Promise<string> {
  const d = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  d.on('data', (c: Buffer) => out.push(c));
  const flushed = async (): Promise<Buffer> => {
    await new Promise<void>((r) => d.flush(constants.Z_FULL_FLUSH, () => r()));
    return Buffer.concat(out.splice(0));
  };
  d.write(head);
  const h = await flushed();
  d.write(Buffer.alloc(1 << 20, char));
  const m = await flushed();
  await new Promise<void>((r) => d.end(tail, () => r()));
  await new Promise<void>((r) => (d.readableEnded ? r() : d.once('end', () => r())));
  return linkOf(Buffer.concat([h, ...Array<Buffer>(mib).fill(m), ...out]));
}
