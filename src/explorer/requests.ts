import type { Client } from './api.js';
import { fill, h } from './dom.js';

/** A request as a curl line; the key is read from MDS_KEY, never written into the page's text. */
export const curlLine = (path: string): string => `curl -g -H "X-API-Key: $MDS_KEY" '${location.origin}${path}'`;

/**
 * The requests panel: the exact requests behind what the view draws, each as a copyable curl
 * line with its status and time.
 */
export function requestsPanel(client: Client): HTMLElement {
  const list = h('ol', { class: 'requests' });
  const copyAll = h('button', { type: 'button', onclick: () => copy(client.log.map((l) => curlLine(l.path)).join('\n')) }, '全部复制');
  const panel = h(
    'details',
    { class: 'requests-panel', id: 'requests' },
    h('summary', {}, '本页的API请求 ', h('span', { class: 'count' }, '0')),
    h('p', { class: 'hint' }, '先把密钥设为环境变量（export MDS_KEY=…），每一行即可在终端运行。', copyAll),
    list,
  );
  const count = panel.querySelector('.count')!;
  // The list is drawn only while the panel is open (a chart's first requests are not slowed by it).
  const draw = () => {
    if (!panel.open) return;
    fill(
      list,
      ...client.log.map((l) =>
        h(
          'li',
          {},
          h('code', { class: 'curl' }, curlLine(l.path)),
          h('span', { class: 'status' }, l.status === null ? '…' : `${l.status} · ${l.ms} ms`),
          h('button', { type: 'button', class: 'copy', onclick: () => copy(curlLine(l.path)) }, '复制'),
        ),
      ),
    );
  };
  client.onLog = () => {
    count.textContent = String(client.log.length);
    draw();
  };
  panel.addEventListener('toggle', draw);
  return panel;
}

function copy(text: string): void {
  navigator.clipboard?.writeText(text).catch(() => {});
}
