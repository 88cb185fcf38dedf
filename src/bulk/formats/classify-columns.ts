// classify's JSON lines as the columns of a table (Parquet): the same fields,
// flattened, typed. Without --crawlers: url, robots and http (a robots.txt per
// host), allowed, line, rule. With --crawlers: per crawler NAME (allowed: a
// boolean), NAME:line and NAME:search, NAME:train-ai, NAME:ai-use; per operator
// of --operators ID:search, ID:train-ai, ID:ai-use: TSV's column names.
import { PURPOSES } from '../../index.js';
import type { TableColumn } from './parquet-table.js';

/** What decides the columns: the options classify was given. */
export interface ClassifyShape {
  crawlers?: readonly string[];
  operators?: readonly string[];
  /** A robots.txt per host (--robots-dir, --robots-warc, --robots-index): each URL says which it had. */
  perHost: boolean;
}

type Field = (record: JsonRecord) => unknown;
type JsonRecord = Record<string, unknown>;

const at = (record: unknown, ...path: string[]): unknown => {
  let v = record;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as JsonRecord)[key];
  }
  return v ?? null;
};

export class ClassifyColumns {
  readonly columns: TableColumn[] = [];
  private readonly fields: Field[] = [];

  constructor(shape: ClassifyShape) {
    this.add({ name: 'url', type: 'STRING' }, (r) => r.url);
    if (shape.perHost) {
      this.add({ name: 'robots', type: 'STRING' }, (r) => r.robots);
      this.add({ name: 'http', type: 'INT32' }, (r) => r.http);
    }
    if (shape.crawlers === undefined && shape.operators === undefined) {
      this.add({ name: 'allowed', type: 'BOOLEAN' }, (r) => r.allowed);
      this.add({ name: 'line', type: 'INT32' }, (r) => r.line);
      this.add({ name: 'rule', type: 'STRING' }, (r) => r.rule);
    }
    for (const c of shape.crawlers ?? []) {
      this.add({ name: c, type: 'BOOLEAN' }, (r) => at(r, 'crawlers', c, 'allowed'));
      this.add({ name: `${c}:line`, type: 'INT32' }, (r) => at(r, 'crawlers', c, 'line'));
      for (const p of PURPOSES) this.add({ name: `${c}:${p}`, type: 'STRING' }, (r) => at(r, 'crawlers', c, 'usage', p));
    }
    for (const o of shape.operators ?? []) {
      for (const p of PURPOSES) this.add({ name: `${o}:${p}`, type: 'STRING' }, (r) => at(r, 'operators', o, p));
    }
  }

  private add(column: TableColumn, field: Field): void {
    this.columns.push(column);
    this.fields.push(field);
  }

  /** A JSON line's values, in the columns' order. */
  row(record: JsonRecord): unknown[] {
    return this.fields.map((f) => f(record) ?? null);
  }
}
