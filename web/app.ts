// The tester page: the inputs, the results as they arrive from the worker, the
// file with its diagnostics, and the explanation of the URL picked (its verdict
// and its purposes). The page parses the file itself (for the file view, the
// facts and explanations); the worker classifies the URLs, so a long list never
// blocks the page.
import { agentNotes, DEFAULT_MAX_OCTETS, parse, type Matcher, type Profile, type RobotsTxt, type Usage, type Explanation, PURPOSES } from '../src/index.js';
import { explainVerdict, INDEX_HTM_NOTE, matchLabel, pathNote } from '../src/engine/explanation.js';
import { profileOr, traitsOf } from '../src/engine/parse/profile.js';
import { AI_CRAWLERS } from '../src/data/ai-crawlers.js';
import { GOOGLE_CRAWLERS } from '../src/data/google-crawlers.js';
import { Editor } from './editor.js';
import { FileView } from './file-view.js';
import type { Chunk, Job, Reply } from './protocol.js';
import { aiDigest, digestDetails } from './ai-digest.js';
import { operatorsDetails } from './operators-matrix.js';
import { countPurposes, countsText, noCounts, purposesAttributes, purposesPanel, purposesTag, usageLines, type PurposeCounts } from './purposes.js';
import { capUrls, decodeState, encodeState, EXAMPLE, LINK_LIMITS, type State } from './state.js';
import { NOTE_LABEL, NOTE_OF, noteWhy, type UrlNote } from './url-notes.js';
import { breakableHtml, breakableSpan } from './url-text.js';

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const robotsField = byId<HTMLTextAreaElement>('robots');
const nextField = byId<HTMLTextAreaElement>('robots-next');
const urlsField = byId<HTMLTextAreaElement>('urls');
const agentField = byId<HTMLInputElement>('agent');
const profileField = byId<HTMLSelectElement>('profile');
const compareField = byId<HTMLInputElement>('compare');
const results = byId<HTMLDivElement>('results');
const summary = byId<HTMLParagraphElement>('summary');
const errorBox = byId<HTMLParagraphElement>('error');
const explanation = byId<HTMLElement>('explanation');
const fileView = byId<HTMLOListElement>('file-view');
const fileViewNext = byId<HTMLOListElement>('file-view-next');
const pickField = byId<HTMLSelectElement>('crawler-pick');
const usageSummary = byId<HTMLParagraphElement>('usage-summary');
const agentNotesList = byId<HTMLUListElement>('agent-notes');
const urlNotesList = byId<HTMLUListElement>('url-notes');
const robotsEditor = new Editor(robotsField, byId('robots-backdrop'));
const nextEditor = new Editor(nextField, byId('robots-next-backdrop'));
const nowView = new FileView(fileView, robotsEditor);
const nextView = new FileView(fileViewNext, nextEditor);
const facts = byId<HTMLDListElement>('facts');
const filterBox = byId<HTMLDivElement>('filter');
/** The line filter's rule: a constructed sheet, which the page's CSP allows where a <style> would not be. */
const filterSheet = new CSSStyleSheet();
document.adoptedStyleSheets = [...document.adoptedStyleSheets, filterSheet];

/** A version of the file as the page reads it: parsed once, compiled for the crawler once. */
interface Version {
  robots: RobotsTxt;
  /** The octets the parser read (the first DEFAULT_MAX_OCTETS), for explanations. */
  body: Uint8Array;
  matcher: Matcher | null;
}

/** The run on screen: its inputs and the verdicts received so far. */
interface Run {
  seq: number;
  state: State;
  agents: string[];
  urls: string[];
  /** The URLs the list held (more than urls.length when past the page's limit). */
  listed: number;
  /** Each URL's note (NOTE_OF), as the chunks arrive; the list's site (the worker says, see url-notes.ts). */
  notes: Uint8Array;
  site: string | null;
  verdicts: Uint8Array;
  lines: Uint32Array;
  verdictsNext: Uint8Array | null;
  linesNext: Uint32Array | null;
  /** Each URL's purposes (protocol.ts's codes, 3 a URL), null while the crawler's groups have no use-preference line; their counts. */
  purposes: Uint8Array | null;
  counts: PurposeCounts;
  received: number;
  allowed: number;
  changed: number;
  now: Version | null;
  next: Version | null;
}

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let seq = 0;
let run: Run | null = null;
let selected = -1;
let lastHash = '';

function readState(): State {
  return {
    robots: robotsField.value,
    urls: urlsField.value,
    agent: agentField.value,
    profile: profileOr(profileField.value, 'google'),
    compare: compareField.checked,
    robotsNext: nextField.value,
  };
}

function showState(s: State): void {
  robotsField.value = s.robots;
  urlsField.value = s.urls;
  agentField.value = s.agent;
  profileField.value = s.profile;
  compareField.checked = s.compare;
  nextField.value = s.robotsNext;
  byId('next-field').hidden = !s.compare;
  robotsEditor.render(new Map());
  nextEditor.render(new Map());
  showAgent();
}

const agentsOf = (text: string): string[] => text.split(',').map((a) => a.trim()).filter((a) => a !== '');
/** The URLs of the list, the first LINK_LIMITS.urls of them (the page's limit), and how many it held. */
function urlsOf(text: string): { urls: string[]; listed: number } {
  const all = text.split(/\r\n|\r|\n/).map((u) => u.trim()).filter((u) => u !== '');
  return { urls: all.length > LINK_LIMITS.urls ? all.slice(0, LINK_LIMITS.urls) : all, listed: all.length };
}

function readVersion(text: string, profile: Profile, agents: string[]): Version {
  const octets = new TextEncoder().encode(text);
  const robots = parse(octets, { profile });
  return { robots, body: octets.subarray(0, Math.min(octets.length, DEFAULT_MAX_OCTETS)), matcher: agents.length > 0 ? robots.compile(agents) : null };
}

function dispose(r: Run | null): void {
  for (const v of [r?.now, r?.next]) {
    v?.matcher?.dispose();
    v?.robots.dispose();
  }
}

/** Everything again from the inputs: the file's view (drawn again only when its text or the profile changed) and facts here, the verdicts in the worker. */
function update(): void {
  const state = readState();
  byId('next-field').hidden = !state.compare;
  const agents = agentsOf(state.agent);
  const { urls, listed } = urlsOf(state.urls);
  const old = run;
  const mine: Run = {
    seq: ++seq, state, agents, urls, listed, notes: new Uint8Array(urls.length), site: null,
    verdicts: new Uint8Array(urls.length), lines: new Uint32Array(urls.length),
    verdictsNext: state.compare ? new Uint8Array(urls.length) : null, linesNext: state.compare ? new Uint32Array(urls.length) : null,
    purposes: null, counts: noCounts(), received: 0, allowed: 0, changed: 0, now: null, next: null,
  };
  run = mine;
  dispose(old);
  const picked = old && selected >= 0 ? old.urls[selected] : undefined;
  selected = -1;
  setFilter(0);
  startResults(mine);
  saveState(state);
  try {
    if (agents.length === 0) throw new Error('Name a crawler, e.g. Googlebot.');
    mine.now = readVersion(state.robots, state.profile, agents);
    if (state.compare) mine.next = readVersion(state.robotsNext, state.profile, agents);
  } catch (e) {
    fail(mine, e instanceof Error ? e.message : String(e));
    showFile(state, null);
    return;
  }
  errorBox.hidden = true;
  showFile(state, mine);
  showUrlNotes(mine, []);
  pendingPick = picked;
  const job: Job = { seq: mine.seq, body: state.robots, bodyNext: state.compare ? state.robotsNext : null, urls, agents, profile: state.profile };
  worker.postMessage(job);
}
let pendingPick: string | undefined;

function fail(r: Run, message: string): void {
  if (r !== run) return;
  errorBox.textContent = message;
  errorBox.hidden = false;
  results.dataset.state = 'error';
  summary.textContent = '';
}

worker.onmessage = (e: MessageEvent<Reply>) => {
  const reply = e.data;
  const r = run;
  if (r === null || reply.seq !== r.seq) return;
  if (reply.type === 'error') fail(r, reply.message);
  else if (reply.type === 'notes') {
    r.site = reply.site;
    showUrlNotes(r, reply.summary);
  } else if (reply.type === 'chunk') addChunk(r, reply);
  else finish(r);
};
worker.onerror = (e) => {
  if (run) fail(run, `The worker failed: ${e.message}`);
};

// ---- Results ----------------------------------------------------------------

function startResults(r: Run): void {
  breaker.disconnect();
  results.replaceChildren();
  urlNotesList.hidden = true;
  usageSummary.hidden = true;
  results.dataset.state = 'running';
  results.dataset.count = '0';
  // Which run the results are of: a test (or a script) waits for this one's 'done'.
  results.dataset.run = String(r.seq);
  if (r.state.compare) {
    results.append(heading('changed-heading', 'Verdict changes'), list('changed-list'), heading('same-heading', 'Same verdict'), list('same-list'));
  } else {
    results.append(list('all-list'));
  }
  summary.textContent = r.urls.length === 0 ? 'No URL to check: write some in the URLs field.' : `Checking ${r.urls.length.toLocaleString('en')} URLs…`;
}

/** What the page can tell of the list besides verdicts (the worker's summary, see url-notes.ts), and its limit. */
function showUrlNotes(r: Run, summary: string[]): void {
  const lines = [...summary];
  if (r.listed > r.urls.length) lines.unshift(`The list holds ${r.listed.toLocaleString('en')} URLs: the page checks the first ${r.urls.length.toLocaleString('en')} (its limit).`);
  urlNotesList.replaceChildren(...lines.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  urlNotesList.hidden = lines.length === 0;
}

function heading(id: string, text: string): HTMLElement {
  const h = document.createElement('h3');
  h.id = id;
  h.textContent = text;
  return h;
}

/** A list of rows: one <ol> a chunk inside, each skipped by layout while off screen (content-visibility), so 100,000 rows cost the page little. */
function list(id: string): HTMLDivElement {
  const div = document.createElement('div');
  div.id = id;
  div.className = 'rows';
  div.tabIndex = 0;
  div.setAttribute('aria-label', id === 'changed-list' ? 'URLs whose verdict changes' : id === 'same-list' ? 'URLs whose verdict stays' : 'Verdicts');
  return div;
}

/** Appends rows (HTML) as a block of n rows to a list. */
function addBlock(list: HTMLElement, html: string, n: number): void {
  if (n === 0) return;
  const ol = document.createElement('ol');
  ol.className = 'block';
  // Its height before it is laid out: n rows (set here: the page's CSP allows no style attribute).
  ol.style.containIntrinsicSize = `auto ${n * ROW_PX}px`;
  ol.innerHTML = html;
  list.append(ol);
  breaker.observe(ol);
}

/** A row's content: its URL, its note's tag and its purposes' (one grid item with it). */
function rowHtml(url: string, note: UrlNote | undefined, uses: string, breaks: boolean): string {
  const text = breaks ? breakableHtml(url) : escapeHtml(url);
  if (note === undefined && uses === '') return text;
  return `<span class="u">${text}${note === undefined ? '' : ` <span class="tag">${NOTE_LABEL[note]}</span>`}${uses === '' ? '' : ` <span class="tag uses">${uses}</span>`}</span>`;
}

/** Row i's purposes tag ('' when none is known). */
const usesOf = (r: Run, i: number): string => (r.purposes === null ? '' : purposesTag(r.purposes, i));

/**
 * Where a row's URL may break (its <wbr>s), and its purposes' tag, added to a
 * block of rows when it comes near the screen: for all of 100,000 rows at once,
 * Chromium held five times the nodes and took three times as long to add them.
 */
const breaker = new IntersectionObserver((entries) => {
  const r = run;
  for (const e of entries) {
    if (!e.isIntersecting || r === null) continue;
    breaker.unobserve(e.target);
    for (const li of (e.target as HTMLElement).children) {
      const i = Number((li as HTMLElement).dataset.i);
      if (r.urls[i] !== undefined) li.innerHTML = rowHtml(r.urls[i], NOTE_OF[r.notes[i]], usesOf(r, i), true);
    }
    (e.target as HTMLElement).dataset.breaks = '';
  }
}, { rootMargin: '100% 0px' });
/** A row's height, near enough, for blocks not laid out yet. */
const ROW_PX = 25;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const word = (v: number): string => (v === 1 ? 'allowed' : 'disallowed');

function addChunk(r: Run, c: Chunk): void {
  r.verdicts.set(c.verdicts, c.from);
  r.notes.set(c.notes, c.from);
  r.lines.set(c.lines, c.from);
  if (c.verdictsNext && c.linesNext) {
    r.verdictsNext!.set(c.verdictsNext, c.from);
    r.linesNext!.set(c.linesNext, c.from);
  }
  if (c.purposes) {
    (r.purposes ??= new Uint8Array(r.urls.length * PURPOSES.length)).set(c.purposes, c.from * PURPOSES.length);
    countPurposes(r.counts, c.purposes, c.verdicts.length);
  }
  let all = '';
  let changed = '';
  let changes = 0;
  for (let k = 0; k < c.verdicts.length; k++) {
    const i = c.from + k;
    const v = c.verdicts[k];
    const line = c.lines[k];
    const url = escapeHtml(r.urls[i]);
    const note = NOTE_OF[c.notes[k]];
    // (Its purposes' tag comes with its break opportunities, near the screen: the data attributes say them already.)
    const inner = rowHtml(r.urls[i], note, '', false);
    // Its purposes, when the crawler's groups say any (data-search, data-train-ai, data-ai-use).
    const uses = c.purposes === null ? '' : purposesAttributes(c.purposes, k);
    const noted = (note === undefined ? '' : ` data-note="${note}"`) + uses;
    r.allowed += v;
    // One element a row: its verdict and line are drawn by CSS from its data attributes (far fewer nodes to parse and keep).
    if (c.verdictsNext === null) {
      all += `<li class="row" tabindex="-1" data-i="${i}" data-url="${url}" data-verdict="${word(v)}" data-line="${line}"${noted}>${inner}</li>`;
      continue;
    }
    const vn = c.verdictsNext[k];
    const ln = c.linesNext![k];
    const row = `<li class="row compare" tabindex="-1" data-i="${i}" data-url="${url}" data-verdict="${word(v)}" data-line="${line}" data-verdict-next="${word(vn)}" data-line-next="${ln}" data-changed="${v !== vn}"${noted}>${inner}</li>`;
    if (v !== vn) {
      changes++;
      changed += row;
    } else {
      all += row;
    }
  }
  r.received = c.from + c.verdicts.length;
  r.changed += changes;
  if (c.verdictsNext === null) addBlock(byId('all-list'), all, c.verdicts.length);
  else {
    addBlock(byId('changed-list'), changed, changes);
    addBlock(byId('same-list'), all, c.verdicts.length - changes);
  }
  results.dataset.count = String(r.received);
  summary.textContent = `Checked ${r.received.toLocaleString('en')} of ${r.urls.length.toLocaleString('en')} URLs…`;
}

function finish(r: Run): void {
  const n = r.urls.length;
  const disallowed = n - r.allowed;
  results.dataset.state = 'done';
  results.dataset.count = String(n);
  summary.dataset.allowed = String(r.allowed);
  summary.dataset.disallowed = String(disallowed);
  summary.dataset.changed = String(r.changed);
  if (n === 0) return;
  let text = `${n.toLocaleString('en')} URLs: ${r.allowed.toLocaleString('en')} allowed, ${disallowed.toLocaleString('en')} disallowed.`;
  if (r.state.compare) {
    const allowedNext = r.verdictsNext!.reduce((a, v) => a + v, 0);
    text += ` New version: ${allowedNext.toLocaleString('en')} allowed, ${(n - allowedNext).toLocaleString('en')} disallowed; ${r.changed.toLocaleString('en')} URL${r.changed === 1 ? '' : 's'} change verdict.`;
    byId('changed-heading').textContent = `Verdict changes (${r.changed.toLocaleString('en')})`;
    byId('same-heading').textContent = `Same verdict (${(n - r.changed).toLocaleString('en')})`;
  }
  summary.textContent = text;
  if (r.purposes !== null) {
    usageSummary.textContent = `Use preferences for ${r.agents.join(', ')}${r.state.compare ? ' (this version)' : ''}: ${countsText(r.counts)}. A URL it may not fetch has none.`;
    usageSummary.hidden = false;
  }
  // The URL that was picked stays picked when the inputs change.
  const at = pendingPick === undefined ? -1 : r.urls.indexOf(pendingPick);
  pendingPick = undefined;
  if (at >= 0) pick(at, false);
}

function rowOf(i: number): HTMLElement | null {
  return results.querySelector(`.row[data-i="${i}"]`);
}

/** Shows why URL i gets its verdict, and its deciding line in the file view. */
function pick(i: number, focus: boolean): void {
  const r = run;
  if (r === null || r.now === null || r.now.matcher === null || i < 0 || i >= r.received) return;
  rowOf(selected)?.setAttribute('aria-selected', 'false');
  const previous = rowOf(selected);
  if (previous) previous.tabIndex = -1;
  selected = i;
  const row = rowOf(i);
  if (row) {
    row.setAttribute('aria-selected', 'true');
    row.tabIndex = 0;
    if (focus) row.focus();
  }
  const url = r.urls[i];
  const now = explainVerdict(r.now.body, r.now.matcher.explain(url), url, r.agents, r.state.profile);
  const next = r.next?.matcher ? explainVerdict(r.next.body, r.next.matcher.explain(url), url, r.agents, r.state.profile) : null;
  // Its purposes: one URL, so here (the worker's codes say the same, without the lines).
  const usageNow = safe(() => r.now!.robots.usage(url, r.agents));
  const usageNext = next ? safe(() => r.next!.robots.usage(url, r.agents)) : undefined;
  const noted = NOTE_OF[r.notes[i]];
  const note = noted === undefined ? [] : [Object.assign(document.createElement('p'), { className: 'note', textContent: noteWhy(r.urls[i], noted, r.site) })];
  // Every AI crawler's answer for the URL (this version): worked out when opened, and kept open from one URL to the next.
  const digestOpen = (document.getElementById('ai-digest') as HTMLDetailsElement | null)?.open ?? false;
  const digest = digestDetails(digestOpen, () => aiDigest(r.now!.robots, url, r.state.profile));
  // Each operator's answer for the URL (this version): open until the reader closes it, and so from one URL to the next.
  const matrixOpen = (document.getElementById('operators') as HTMLDetailsElement | null)?.open ?? true;
  const matrix = operatorsDetails(matrixOpen, r.now.robots, url);
  explanation.replaceChildren(...note, ...explainBlock(now, next ? 'This version' : null, r.now, usageNow), ...(next ? explainBlock(next, 'New version', r.next!, usageNext) : []), matrix, digest);
  // The deciding line and the lines that decide its purposes, in the editor and in the file's view (of each version).
  const usesNow = usageNow ? usageLines(usageNow) : [];
  const usesNext = usageNext ? usageLines(usageNext) : [];
  robotsEditor.decide(now.line, usesNow);
  nowView.markDecides(now.line, usesNow);
  nextEditor.decide(next ? next.line : 0, usesNext);
  nextView.markDecides(next ? next.line : 0, usesNext);
}

function explainBlock(e: Explanation, title: string | null, version: Version, usage: Usage | undefined): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (title) out.push(Object.assign(document.createElement('h3'), { textContent: title }));
  const dl = document.createElement('dl');
  const add = (term: string, value: string | HTMLElement) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.append(value);
    dl.append(dt, dd);
  };
  add('URL', breakableSpan(e.url));
  add('Path', `${e.path} (${pathNote(e.profile)})`);
  add('Crawler', `${e.crawler.join(', ')} (profile ${e.profile})`);
  add('Group', e.group);
  if (e.matches.length === 0) add('Rules', 'none of the group\'s rules matches this path.');
  else {
    const ul = document.createElement('ul');
    for (const m of e.matches) {
      const li = document.createElement('li');
      li.textContent = `line ${m.line}: ${matchLabel(m)} (length ${m.length})${m.viaIndexHtm ? ` (${INDEX_HTM_NOTE})` : ''}`;
      ul.append(li);
    }
    add('Rules that match', ul);
  }
  const verdict = document.createElement('span');
  const strong = Object.assign(document.createElement('strong'), { textContent: e.allowed ? 'ALLOWED' : 'DISALLOWED', className: `v ${e.allowed ? 'allowed' : 'disallowed'}` });
  verdict.append(strong, ` ${e.why}`);
  add('Verdict', verdict);
  // (One reading of Content-Usage: usage()'s purposes, with the lines behind them.)
  if (usage !== undefined) add('Purposes', purposesPanel(usage));
  out.push(dl);
  return out;
}

/** The purposes usage() knows ("search allowed, train-ai disallowed"), or "none". */
function knownPurposes(u: Usage): string {
  const known = PURPOSES.filter((p) => u.purposes[p] !== 'unknown').map((p) => `${p} ${u.purposes[p]}`);
  return known.length === 0 ? 'none' : known.join(', ');
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

// ---- The file -----------------------------------------------------------------

function showFile(state: State, r: Run | null): void {
  // (Each version linted and drawn again only when its text or the profile changed: file-view.ts.)
  const { report, octets } = nowView.show(state.robots, state.profile);
  byId('next-file').hidden = !state.compare;
  const nextReport = state.compare ? nextView.show(state.robotsNext, state.profile).report : null;
  const lines = fileView.children;
  // Findings past the last line (a size limit) still show.
  const rows: [string, string | HTMLElement][] = [];
  rows.push(['Size', `${octets.toLocaleString('en')} octets, ${lines.length.toLocaleString('en')} lines`]);
  rows.push(['Diagnostics', report.findings.length === 0 ? 'none' : `${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'} (marked on their lines)`]);
  const robots = r?.now?.robots;
  if (robots && r) {
    const delay = safe(() => robots.crawlDelay(r.agents));
    rows.push(['Crawl-delay', delay === undefined ? `none for ${r.agents.join(', ')}` : `${delay} s for ${r.agents.join(', ')}${traitsOf(state.profile).crawlDelayIgnored ? ' (Googlebot ignores it)' : ''}`]);
    const usage = safe(() => robots.usage('/', r.agents));
    rows.push(['Use preferences', `${usage === undefined ? 'none' : knownPurposes(usage)} (for /)`]);
    const maps = document.createElement('span');
    if (robots.sitemaps.length === 0) maps.textContent = 'none';
    for (const [k, s] of robots.sitemaps.entries()) maps.append(...(k > 0 ? [document.createElement('br')] : []), breakableSpan(s));
    rows.push(['Sitemaps', maps]);
    // RSL licences and LLM policies: file-wide, every line.
    const urlList = (values: readonly string[]) => {
      const span = document.createElement('span');
      for (const [k, v] of values.entries()) span.append(...(k > 0 ? [document.createElement('br')] : []), breakableSpan(v));
      return span;
    };
    if (robots.licenses.length > 0) rows.push(['License', urlList(robots.licenses)]);
    if (robots.llmPolicies.length > 0) rows.push(['LLM-Policy', urlList(robots.llmPolicies)]);
    if (r.next && nextReport) {
      rows.push(['New version', `${nextReport.errors} error${nextReport.errors === 1 ? '' : 's'}, ${nextReport.warnings} warning${nextReport.warnings === 1 ? '' : 's'}`]);
    }
  }
  facts.replaceChildren();
  for (const [term, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.append(value);
    facts.append(dt, dd);
  }
}

/** Shows only the URLs that line n of a version decides; 0 shows all. */
function setFilter(n: number, next = false): void {
  filterLine = n;
  filterNext = next;
  const attr = next ? 'data-line-next' : 'data-line';
  filterSheet.replaceSync(n === 0 ? '' : `#results .row:not([${attr}="${n}"]) { display: none; }`);
  filterBox.hidden = n === 0;
  byId('filter-text').textContent = n === 0 ? '' : `Showing the URLs that line ${n}${next ? ' of the new version' : ''} decides.`;
  for (const li of document.querySelectorAll('.file-view .picked')) li.classList.remove('picked');
  if (n > 0) (next ? fileViewNext : fileView).children[n - 1]?.classList.add('picked');
}

// ---- The link -------------------------------------------------------------------

/** Fragments longer than this are not kept (browsers cap a URL at about 2 MB). */
const MAX_FRAGMENT = 1_500_000;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function saveState(state: State): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(async () => {
    const hash = await encodeState(state);
    if (hash.length > MAX_FRAGMENT) return;
    lastHash = hash;
    history.replaceState(null, '', hash);
  }, 300);
}

// ---- Events -----------------------------------------------------------------------

let inputTimer: ReturnType<typeof setTimeout> | undefined;
function soon(): void {
  clearTimeout(inputTimer);
  inputTimer = setTimeout(update, 120);
}
function now(): void {
  clearTimeout(inputTimer);
  update();
}

for (const field of [robotsField, nextField, urlsField, agentField]) field.addEventListener('input', soon);
profileField.addEventListener('input', now);
profileField.addEventListener('change', now);
compareField.addEventListener('change', now);
byId<HTMLFormElement>('controls').addEventListener('submit', (e) => {
  e.preventDefault();
  now();
});
byId('clear-filter').addEventListener('click', () => setFilter(0));

results.addEventListener('click', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  if (row) pick(Number(row.dataset.i), true);
});
results.addEventListener('keydown', (e) => {
  const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
  const from = row ?? (e.target as HTMLElement).querySelector<HTMLElement>('.row');
  if (!from) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    pick(Number(from.dataset.i), true);
  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    const to = row ? step(row, e.key === 'ArrowDown') : shown(from) ? from : step(from, true);
    if (to) pick(Number(to.dataset.i), true);
  }
});

/** The line the results are filtered by, 0 for none, and whether it is of the new version. */
let filterLine = 0;
let filterNext = false;
const shown = (row: Element): boolean => filterLine === 0 || (filterNext ? (row as HTMLElement).dataset.lineNext : (row as HTMLElement).dataset.line) === String(filterLine);

/** The next (or previous) row shown, across the lists (changed, then same). */
function step(row: HTMLElement, down: boolean): HTMLElement | null {
  const rows = results.querySelectorAll<HTMLElement>('.row');
  let at = Array.prototype.indexOf.call(rows, row) as number;
  for (at += down ? 1 : -1; at >= 0 && at < rows.length; at += down ? 1 : -1) if (shown(rows[at])) return rows[at];
  return null;
}

for (const view of [fileView, fileViewNext]) {
  view.addEventListener('click', (e) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>('li[data-line]');
    if (li) setFilter(Number(li.dataset.line), view === fileViewNext);
  });
  view.addEventListener('keydown', (e) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>('li[data-line]');
    if (li && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      setFilter(Number(li.dataset.line), view === fileViewNext);
    }
  });
}

// A file dropped on a field (the robots.txt, the URLs), or opened with its button:
// read up to the page's limits (a parser reads 512,000 octets of a robots.txt),
// so a huge file never freezes the page, and the page says what it left out.
function fileInto(dropZone: string, fileInput: string, field: HTMLTextAreaElement): void {
  const zone = byId(dropZone);
  const load = async (file: File | undefined) => {
    if (!file) return;
    const size = (n: number) => `${n.toLocaleString('en')} octets`;
    if (field === robotsField) {
      const max = LINK_LIMITS.bodyOctets;
      field.value = new TextDecoder().decode(await file.slice(0, max).arrayBuffer(), { stream: true });
      showNotice(file.size > max ? [`${file.name} has ${size(file.size)}: a parser reads the first ${size(max)}, and the page loaded those.`] : [], 'file');
    } else {
      const list = capUrls(new TextDecoder().decode(await file.slice(0, LINK_LIMITS.urlOctets + 1).arrayBuffer(), { stream: true }));
      field.value = list.text;
      showNotice(list.cut ? [`${file.name} holds more than the page checks (${LINK_LIMITS.urls.toLocaleString('en')} URLs, ${LINK_LIMITS.urlOctets / 1024 / 1024} MiB): it loaded the first ${list.count.toLocaleString('en')} URLs.`] : [], 'file');
    }
    now();
  };
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('drag');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('drag'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('drag');
    void load(e.dataTransfer?.files[0]);
  });
  byId<HTMLInputElement>(fileInput).addEventListener('change', (e) => void load((e.target as HTMLInputElement).files?.[0]));
}
fileInto('robots-drop', 'robots-file', robotsField);
fileInto('urls-drop', 'urls-file', urlsField);

// ---- Notices: what the page left out of a link or a file ------------------------

/** Says what the page left out of a link or a file (nothing: the notice goes). */
function showNotice(cuts: string[], what: 'link' | 'file' = 'link'): void {
  byId('notice-text').textContent = cuts.length === 0 ? '' : `The page read this ${what} only up to its limits, so that it stays usable:`;
  byId('notice-list').replaceChildren(...cuts.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  byId('notice').hidden = cuts.length === 0;
}
byId('notice-close').addEventListener('click', () => showNotice([]));

// ---- Crawler names: the pick-lists, and what to know of the names given -------------

function fillPicks(): void {
  const option = (value: string, text: string, title: string) => Object.assign(document.createElement('option'), { value, textContent: text, title });
  byId('google-crawlers').append(...GOOGLE_CRAWLERS.map((c) => option(c.name, `${c.name} – ${c.purpose}`, c.note)));
  const ai = [...AI_CRAWLERS].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  byId('ai-crawlers').append(...ai.map((c) => option(c.name, c.operator && c.operator.length < 40 ? `${c.name} – ${c.operator}` : c.name, c.function)));
  // The crawler field suggests the same names as it is typed (a search of the list).
  byId('crawler-names').append(...[...GOOGLE_CRAWLERS, ...ai].map((c) => Object.assign(document.createElement('option'), { value: c.name })));
}

/** The pick-list shows the crawler typed when it lists it; and the notes on the names given. */
function showAgent(): void {
  const agents = agentsOf(agentField.value);
  pickField.value = agents.length === 1 && [...pickField.options].some((o) => o.value === agents[0]) ? agents[0] : '';
  agentNotesList.replaceChildren(...crawlerNotes(agents).map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  agentNotesList.hidden = agentNotesList.children.length === 0;
}

/**
 * What the profile does with a name that is not a product token (agentNotes: the
 * library's words, as robots check and explain print them), and what Google
 * documents of a crawler the page cannot show in a verdict (src/data/google-crawlers.ts).
 */
function crawlerNotes(agents: string[]): string[] {
  const notes = agentNotes(agents, profileOr(profileField.value, 'google'));
  for (const a of agents) {
    const g = GOOGLE_CRAWLERS.find((c) => c.name.toLowerCase() === a.toLowerCase());
    if (g?.note) notes.push(`${g.name}: ${g.note}`);
  }
  return notes;
}

profileField.addEventListener('change', showAgent);

pickField.addEventListener('change', () => {
  if (pickField.value === '') return;
  agentField.value = pickField.value;
  showAgent();
  now();
});
agentField.addEventListener('input', showAgent);

// ---- The start: the link's state, or the example --------------------------------

/** A link pasted into this tab, or the back button: the fragment's state, and what of it the page left out. */
function openLink(hash: string): boolean {
  const decoded = decodeState(hash);
  if (decoded === null) return false;
  showState(decoded.state);
  showNotice(decoded.cuts);
  return true;
}
window.addEventListener('hashchange', () => {
  if (location.hash === lastHash) return;
  if (openLink(location.hash)) now();
});

fillPicks();
if (!openLink(location.hash)) showState(EXAMPLE);
update();
