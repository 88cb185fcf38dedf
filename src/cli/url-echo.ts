// A URL as the commands echo it: its C0 controls (tab, CR, LF, ESC…) as %XX,
// as WHATWG's percent-encoding writes them and as classify's core does
// (assembly/bulk/classify.ts), so that line-oriented output keeps one line per URL,
// TSV its columns, and a terminal its state. The verdict is the URL's as given.
const CONTROLS = /[\x00-\x1f]/g;

export function echoUrl(url: string): string {
  return url.replace(CONTROLS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
