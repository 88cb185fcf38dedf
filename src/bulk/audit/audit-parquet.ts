// The types of audit's columns in Parquet (audit-output.ts names them): the HTTP
// status and the rank numbers, whether a crawler's purposes vary a boolean, the rest text
// (categories, how a crawler is named, purposes, the site's lines).
import type { ColumnType } from '../formats/parquet-table.js';

export function auditColumnType(column: string): ColumnType {
  if (column === 'http' || column === 'rank') return 'INT32';
  if (column.endsWith(':purposes-vary')) return 'BOOLEAN';
  return 'STRING';
}
