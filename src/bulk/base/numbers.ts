// Numbers as people read them: the command's summaries and progress bar, the audit report's page.
/** 1234567 -> "1,234,567" (toLocaleString would load ICU data, a slow first call for a progress line). */
export function thousands(x: number): string {
  return String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
