/** The head of an instrument's views: its name, code, tags, and links to its K线, 分时 and F10 views. */
import { h } from './dom.js';
import type { Instrument } from './instruments.js';

export const KIND_NAMES = { equity: '股票', index: '指数', fund: '基金' } as const;
const BOARD_NAMES: Record<string, string> = { main: '主板', chinext: '创业板', star: '科创板', bse: '北交所' };

export function instrumentHead(inst: Instrument, at: 'chart' | 'minute' | 'fundamentals'): HTMLElement {
  const link = (to: typeof at, href: string, text: string, id: string) =>
    to === at ? h('span', { class: 'here' }, text) : h('a', { href, id }, text);
  return h(
    'div',
    { class: 'instrument-head' },
    h('h1', {}, h('span', { id: 'instrument-name' }, inst.name), ' ', h('span', { class: 'muted', id: 'instrument-id' }, inst.id)),
    h('span', { class: 'tag' }, KIND_NAMES[inst.kind]),
    inst.board ? h('span', { class: 'tag' }, BOARD_NAMES[inst.board] ?? inst.board) : null,
    inst.is_st ? h('span', { class: 'tag st' }, 'ST') : null,
    h(
      'span',
      { class: 'views' },
      link('chart', `#/chart/${inst.id}`, 'K线', 'to-chart'),
      link('minute', `#/minute/${inst.id}`, '分时 F5', 'to-minute-head'),
      inst.kind === 'equity' ? link('fundamentals', `#/fundamentals/${inst.id}`, '资料 F10', 'to-fundamentals') : null,
    ),
  );
}
