/**
 * New data while a view is open: the service's event stream (GET /api/v1/events, read with the
 * TypeScript client's fetch-based reader: the key goes in X-API-Key, which EventSource cannot
 * send) from the version the view was drawn at; a later version shows the banner
 * 「新数据：版本 N」, whose 刷新 draws the view again from its hash (the same instrument, interval,
 * adjustment, indicators, day and overlay) where it was (main.ts: the view's `position`, its zoom).
 */
import { streamEvents } from '../../clients/ts/src/events.js';
import { ApiFailure, type Client } from './api.js';
import { h } from './dom.js';

/** The banner (hidden until a version newer than the view's comes); `reload` draws the view again. */
export function liveBanner(client: Client, reload: () => void): HTMLElement {
  const text = h('span', { id: 'live-text' }, '');
  const button = h('button', { type: 'button', id: 'live-reload' }, '刷新');
  const el = h('div', { id: 'live-banner', role: 'status', hidden: true }, text, ' ', button);
  let latest = 0;
  let started = false;
  button.addEventListener('click', () => {
    el.hidden = true;
    reload();
  });
  const show = () => {
    const seen = client.version;
    if (!started && seen !== null && client.key) {
      started = true;
      void listen(client, seen, el, (v) => {
        latest = Math.max(latest, v);
        show();
      });
    }
    if (seen !== null && latest > seen) {
      text.textContent = `新数据：版本 ${latest}`;
      el.dataset.version = String(latest);
      el.hidden = false;
    } else el.hidden = true;
  };
  client.onVersion = show;
  return el;
}

/** Reads the stream after `after` until it fails for good; `data-live` on the banner says whether it is open. */
async function listen(client: Client, after: number, el: HTMLElement, onVersion: (v: number) => void): Promise<void> {
  const fetchOpen = async (r: Request) => {
    const res = await fetch(r);
    if (res.ok) el.dataset.live = 'open';
    return res;
  };
  try {
    const options = { baseUrl: location.origin, key: client.key ?? undefined, query: { after }, fetch: fetchOpen, retries: 8 };
    const deps = {
      fail: (status: number, body: unknown) => {
        const e = (body as { errors?: { code?: string; detail?: string }[] } | undefined)?.errors?.[0];
        return new ApiFailure(status, e?.code ?? 'error', e?.detail ?? `HTTP ${status}`);
      },
      retryAfterMs: (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) * 1000 : null),
    };
    for await (const record of streamEvents(options, deps)) onVersion(record.version);
  } catch {
    // The key refused, or the service gone for good: no banner (the views say why on their next request).
  }
  el.dataset.live = 'closed';
}
