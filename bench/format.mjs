// How figures are written in the terminal table and the report.

/** A figure with three significant digits and an SI suffix (12.3k, 4.56M), bytes in KiB/MiB. */
export function formatFigure(value, unit) {
  if (value === undefined || value === null || Number.isNaN(value)) return '—';
  if (unit === '%') return `${value.toFixed(value === 100 ? 0 : 2)}%`;
  if (unit === 'bytes/host') {
    const abs = Math.abs(value);
    if (abs >= 2 ** 20) return `${(value / 2 ** 20).toPrecision(3)} MiB`;
    if (abs >= 1024) return `${(value / 1024).toPrecision(3)} KiB`;
    return `${Math.round(value)} B`;
  }
  if (unit === 'ms') return value.toFixed(value < 10 ? 1 : 0);
  const abs = Math.abs(value);
  for (const [size, suffix] of /** @type {[number, string][]} */ ([[1e9, 'G'], [1e6, 'M'], [1e3, 'k']])) if (abs >= size) return `${(value / size).toPrecision(3)}${suffix}`;
  return value.toPrecision(3);
}
