// The captures cut to --max-octets while WARCs are read, said in one warning
// line once the reading is done: how many, and the first few by name (a crawl
// holds thousands, and a line each drowned the warnings that matter).

/** Captures named in the line. */
const NAMED = 3;

export class CutCaptures {
  private count = 0;
  private readonly named: { file: string; key: string; where: string }[] = [];

  constructor(private readonly maxOctets: number) {}

  /** A capture of `file` (as the user knows it) cut, its record at `offset` (of the inflated octets when gzipped). */
  add(file: string, key: string, offset: number, gzip: boolean): void {
    this.count++;
    if (this.named.length < NAMED) this.named.push({ file, key, where: `record at ${gzip ? 'uncompressed ' : ''}offset ${offset}` });
  }

  get size(): number {
    return this.count;
  }

  /** The warning, or undefined when no capture was cut. */
  line(): string | undefined {
    const max = this.maxOctets;
    if (this.count === 0) return undefined;
    if (this.count === 1) {
      const { file, key, where } = this.named[0];
      return `${file}: the capture of ${key} (${where}) is longer than --max-octets once decoded: its first ${max} octets are used`;
    }
    const some = this.named.map(({ file, key, where }) => `${key} (${file}, ${where})`).join(', ');
    const more = this.count - this.named.length;
    return `${this.count} captures are longer than --max-octets (${max}) once decoded, their first ${max} octets used: ${some}${more > 0 ? ` and ${more} more` : ''}`;
  }
}
