// classify --operators: each operator's purposes (search, train-ai, ai-use) as
// slots of the crawler table the core decides, after the --crawlers' own. A
// slot's matcher is its purpose's crawler's (the first the operator lists for
// it, as RobotsTxt.operatorUsage takes it), so it shares the walk of every slot
// whose crawler the same groups apply to, and its purpose code is that
// crawler's with its operator's control tokens (host-matchers.ts); the core
// writes one word from the two (layout.ts's SLOT_OPERATOR): yes where the
// crawler may fetch the URL and the code does not disallow the purpose, else
// no; a purpose the operator has no crawler for is `unknown` (SLOT_NO_CRAWLER).
import { operatorById, type Operator } from '../../data/operators.js';
import { PURPOSES } from '../../index.js';
import { SLOT_NO_CRAWLER, SLOT_OPERATOR, SLOT_PURPOSES, SLOT_VERDICT } from '../../engine/wasm/layout.js';

export interface Slots {
  /** The name each slot is compiled for: the crawlers', then per operator and purpose its crawler's. */
  names: string[];
  /** Per slot its kind (layout.ts's SLOT_*). */
  kinds: number[];
  /** The crawlers' slots, first. */
  crawlers: number;
  /** The operators' ids, in their slots' order (three slots each). */
  operators: string[];
}

/** The slots of a classification: its crawlers (with their purposes when `usage`), then its operators' (ids of the data). */
export function slotsOf(crawlers: readonly string[] | undefined, operatorIds: readonly string[] | undefined, usage: boolean): Slots {
  const names = [...(crawlers ?? [])];
  const kinds: number[] = names.map(() => (usage ? SLOT_PURPOSES : SLOT_VERDICT));
  const operators: string[] = [];
  for (const id of operatorIds ?? []) {
    const operator = operatorById(id);
    if (operator === undefined) throw new RangeError(`unknown operator ${JSON.stringify(id)}`);
    operators.push(operator.id);
    PURPOSES.forEach((p, i) => {
      const crawler = operator.crawlers.find((c) => c.purposes.includes(p));
      // (No crawler: the column says unknown, whatever a verdict; the slot takes a name that is compiled anyway, and no walk.)
      names.push(crawler?.token ?? anyName(operator, names));
      kinds.push(crawler === undefined ? SLOT_NO_CRAWLER + i : SLOT_OPERATOR + i);
    });
  }
  return { names, kinds, crawlers: crawlers?.length ?? 0, operators };
}

/** A name for a slot without a crawler: one of the operator's, or any slot's. */
function anyName(operator: Operator, names: readonly string[]): string {
  return operator.crawlers[0]?.token ?? names[0] ?? 'Googlebot';
}

/** Whether a slot's kind is an operator's. */
export function isOperatorSlot(kind: number): boolean {
  return kind >= SLOT_OPERATOR;
}

/** Whether a slot says unknown whatever its crawler's verdict (its matcher is not walked). */
export function hasNoCrawler(kind: number): boolean {
  return kind >= SLOT_NO_CRAWLER;
}

/** JSON lines: slot j's fragment before its value (slot 0's opens "crawlers" or "operators"; an operator's first the operator's object). */
export function slotFragment(slots: Slots, j: number): string {
  if (j < slots.crawlers) return `${j === 0 ? ',"crawlers":{' : ','}${JSON.stringify(slots.names[j])}:{"allowed":`;
  const o = Math.floor((j - slots.crawlers) / 3);
  const p = (j - slots.crawlers) % 3;
  if (p > 0) return `,${JSON.stringify(PURPOSES[p])}:"`;
  const open = o > 0 ? ',' : slots.crawlers > 0 ? '},"operators":{' : ',"operators":{';
  return `${open}${JSON.stringify(slots.operators[o])}:{${JSON.stringify(PURPOSES[0])}:"`;
}

/** TSV's header: `url`, each crawler (and its purposes with usage), then `<id>:<purpose>` per operator. */
export function headerColumns(slots: Slots, usage: boolean): string[] {
  const crawlers = slots.names.slice(0, slots.crawlers);
  return [
    'url',
    ...(usage ? crawlers.flatMap((c) => [c, ...PURPOSES.map((p) => `${c}:${p}`)]) : crawlers),
    ...slots.operators.flatMap((id) => PURPOSES.map((p) => `${id}:${p}`)),
  ];
}
