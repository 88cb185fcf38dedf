// A table written as a Parquet file as its rows come: rows are held only until a
// row group is full, then encoded (hyparquet-writer: pure JavaScript, no native
// build, so it installs wherever the command does) and written out, so memory is
// bounded by one row group, whatever the number of rows. The file is written
// through an OutputSink: under a temporary name, renamed into place when complete.
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { OutputSink } from '../base/output-sink.js';

/** A column's type, as the file declares it. */
export type ColumnType = 'STRING' | 'BOOLEAN' | 'INT32' | 'INT64';

export interface TableColumn {
  name: string;
  type: ColumnType;
  /** The schema element as another file declared it (a column passed through): its type kept. */
  element?: SchemaElement;
}

/** Rows per row group when not told: a few megabytes of a wide table, large enough for columnar reads to pay. */
export const DEFAULT_ROW_GROUP_ROWS = 65_536;

const ELEMENTS: Record<ColumnType, Omit<SchemaElement, 'name'>> = {
  STRING: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  BOOLEAN: { type: 'BOOLEAN' },
  INT32: { type: 'INT32' },
  INT64: { type: 'INT64' },
};

/** The octets the encoder wrote since the last row group, handed to the sink after each group. */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: OutputSink) {
    super(1 << 16);
  }

  flush(): Promise<void> {
    const octets = new Uint8Array(this.buffer.slice(0, this.index));
    this.index = 0;
    return this.sink.write(octets);
  }

  finish(): Promise<void> {
    return this.flush();
  }
}

export class ParquetTable {
  private readonly sink: OutputSink;
  private readonly writer: SinkWriter;
  private readonly parquet: ParquetWriter;
  private readonly columns: readonly TableColumn[];
  private values: unknown[][];
  private rows = 0;
  /** Row groups written so far. */
  groups = 0;

  constructor(path: string, columns: readonly TableColumn[], private readonly groupRows = DEFAULT_ROW_GROUP_ROWS) {
    this.columns = columns;
    const schema: SchemaElement[] = [
      { name: 'root', num_children: columns.length },
      ...columns.map((c): SchemaElement => ({ ...(c.element ?? ELEMENTS[c.type]), name: c.name, repetition_type: 'OPTIONAL' })),
    ];
    this.sink = new OutputSink(path);
    this.writer = new SinkWriter(this.sink);
    this.parquet = new ParquetWriter({ writer: this.writer, schema, createdBy: 'robots-wasm' });
    this.values = columns.map(() => []);
  }

  /** The output's name in messages. */
  get name(): string {
    return this.sink.name;
  }

  /** A row: a value per column, in the columns' order (null: none). Settles once its row group, if it filled one, is written. */
  async add(row: readonly unknown[]): Promise<void> {
    for (let i = 0; i < this.values.length; i++) this.values[i].push(row[i] ?? null);
    if (++this.rows === this.groupRows) await this.writeGroup();
  }

  private async writeGroup(): Promise<void> {
    if (this.rows === 0) return;
    const columnData = this.columns.map((c, i) => ({ name: c.name, data: this.values[i] }));
    this.values = this.columns.map(() => []);
    const rows = this.rows;
    this.rows = 0;
    this.groups++;
    await this.parquet.write({ columnData, rowGroupSize: rows });
  }

  /** The last rows, the footer, and the file moved into place. */
  async finish(): Promise<void> {
    await this.writeGroup();
    await this.parquet.finish();
    await this.sink.finish();
  }

  /** After a failure: see OutputSink.abandon. */
  abandon(): string {
    return this.sink.abandon();
  }
}
