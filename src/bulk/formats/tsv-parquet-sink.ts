// TSV lines (a header, then rows) written as a Parquet file instead: a column per
// header cell, typed by its name, an empty cell none (null). It takes what an
// OutputSink takes, so a command that writes TSV writes Parquet through it.
// The Parquet writer is imported with the first line: a command that only
// might write Parquet (audit, by --format) compiles it only when it does.
import type { ColumnType, ParquetTable } from './parquet-table.js';

/** A cell as its column's type holds it (null: empty, or not of the type). */
function typed(cell: string, type: ColumnType): unknown {
  if (cell === '') return null;
  switch (type) {
    case 'BOOLEAN': return cell === 'yes' || cell === 'true' ? true : cell === 'no' || cell === 'false' ? false : null;
    case 'INT32': return /^-?\d{1,9}$/.test(cell) ? Number(cell) : null;
    case 'INT64': return /^-?\d{1,18}$/.test(cell) ? BigInt(cell) : null;
    default: return cell;
  }
}

export class TsvParquetSink {
  private table: ParquetTable | null = null;
  private types: ColumnType[] = [];
  /** A line not yet ended (a write may end mid-line). */
  private rest = '';
  private readonly decoder = new TextDecoder();
  /** Never: a file has no reader to go away (OutputSink's, for the commands' loops). */
  readonly closedByReader = false;

  constructor(private readonly path: string, private readonly typeOf: (column: string) => ColumnType, private readonly groupRows?: number) {}

  get name(): string {
    return this.path;
  }

  /** Row groups written so far. */
  get groups(): number {
    return this.table?.groups ?? 0;
  }

  async write(octets: Uint8Array): Promise<void> {
    const lines = (this.rest + this.decoder.decode(octets, { stream: true })).split('\n');
    this.rest = lines.pop()!;
    for (const line of lines) await this.line(line);
  }

  private async line(line: string): Promise<void> {
    const cells = line.split('\t');
    if (this.table === null) {
      this.types = cells.map(this.typeOf);
      const { ParquetTable } = await import('./parquet-table.js');
      this.table = new ParquetTable(this.path, cells.map((name, i) => ({ name, type: this.types[i] })), this.groupRows);
      return;
    }
    await this.table.add(cells.map((c, i) => typed(c, this.types[i] ?? 'STRING')));
  }

  async finish(): Promise<void> {
    if (this.rest !== '') await this.line(this.rest);
    this.rest = '';
    await this.table?.finish();
  }

  abandon(): string {
    return this.table?.abandon() ?? `nothing was written to ${this.path}`;
  }
}
