// --row-group N: rows per row group of a Parquet output (classify's and audit's).
import { CliError } from './errors.js';

/** Largest --row-group: a row group is held in memory whole. */
const MAX_ROW_GROUP = 1 << 24;

/** undefined when not given (the writer's default). */
export function parseRowGroup(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rows = Number(value);
  if (!Number.isInteger(rows) || rows < 1 || rows > MAX_ROW_GROUP) throw new CliError(`--row-group must be a whole number of rows from 1 to ${MAX_ROW_GROUP}, got "${value}"`);
  return rows;
}
