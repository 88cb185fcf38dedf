// URLs as the page shows them: broken across lines only between words (after
// '/', '-', '_', '~', ',', '=', before '.', '?', '&', '#', ';'), with <wbr>
// (which copying leaves out). A word longer than its box still breaks (CSS
// overflow-wrap: anywhere) rather than overflow.
const escapeChar = (c: string): string => (/[&<>"']/.test(c) ? `&#${c.charCodeAt(0)};` : c);
const AFTER = '/-_~,=';
const BEFORE = '.?&#;';

/** The URL as HTML, with a <wbr> at each place it may break. */
export function breakableHtml(url: string): string {
  let html = '';
  for (let i = 0; i < url.length; i++) {
    const c = url[i];
    if (i > 0 && BEFORE.includes(c) && !BEFORE.includes(url[i - 1])) html += '<wbr>';
    html += escapeChar(c);
    if (AFTER.includes(c) && i + 1 < url.length && !AFTER.includes(url[i + 1]) && !BEFORE.includes(url[i + 1])) html += '<wbr>';
  }
  return html;
}

/** The URL as an element, for the explanation and the file's facts. */
export function breakableSpan(url: string): HTMLSpanElement {
  const span = document.createElement('span');
  span.className = 'url';
  span.innerHTML = breakableHtml(url);
  return span;
}
