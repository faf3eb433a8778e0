/**
 * Requests that put a body's end where a test wants it in the app's renderer slab
 * (src/render/json-bytes.ts): ordinary pages of an equity's latest daily bars (`from` its k-th
 * latest day: one page, no next link), whose length is chosen by k and by leading zeros in the
 * page size (the URL is written once in the body, in links.self), measured first on a
 * reference app that renders every body on a renderer of its own.
 */
import { expect } from 'vitest';
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/app/config.js';
import { Renderer } from '../src/render/json-bytes.js';
import type { App } from '../src/http/services.js';
import type { Harness } from './helpers.js';

/** The renderer's first slab (render/json-bytes.ts). */
export const SLAB = 256 * 1024;

export interface Answer {
  status: number;
  type: string | undefined;
  body: Buffer;
}

/** The app under test, a reference app over the same store, and daily pages of one equity. */
export class Steering {
  private readonly lengths = new Map<string, number>();
  /** The equity's latest trading days, newest first (up to 1,000). */
  private days: string[] = [];
  private constructor(
    readonly h: Harness,
    readonly ref: App,
    private readonly equity: string,
  ) {}

  /** A reference app over `h`'s store (closed with `close`), and `equity`'s daily bars to steer with. */
  static async over(h: Harness, equity: string): Promise<Steering> {
    const ref = await buildApp({ config: { ...loadConfig({}), databaseUrl: h.url }, store: h.store });
    await ref.ready();
    const s = new Steering(h, ref, equity);
    const latest = await s.reference(`/api/v1/equities/${equity}/bars?interval=1d&order=desc&page[size]=1000`);
    s.days = JSON.parse(latest.body.toString()).data.map((b: { trade_date: string }) => b.trade_date);
    return s;
  }

  async close(): Promise<void> {
    await this.ref.close();
  }

  get renderer(): Renderer {
    return this.h.app.svc.renderer;
  }

  /** `url` answered by the app under test. */
  async ask(url: string, accept?: string): Promise<Answer> {
    return answer(this.h.app, url, this.h.key, accept);
  }

  /** `url` answered as a server that rendered nothing before answers it (a renderer of its own). */
  async reference(url: string, accept?: string): Promise<Answer> {
    this.ref.svc.renderer = new Renderer();
    return answer(this.ref, url, this.h.key, accept);
  }

  /**
   * `url` answered by the app, checked to be byte for byte the reference's answer: 200, or with
   * `status` null whatever status under 500 the reference answers.
   */
  async same(url: string, accept?: string, status: number | null = 200): Promise<Answer> {
    const got = await this.ask(url, accept);
    const want = await this.reference(url, accept);
    expect(got.status, `${url}: ${got.body.toString('utf8', 0, 300)}`).toBe(want.status);
    if (status === null) expect(got.status, url).toBeLessThan(500);
    else expect(got.status, url).toBe(status);
    expect(got.type).toBe(want.type);
    expect(got.body.equals(want.body), `${url}: the same bytes as a fresh server's`).toBe(true);
    return got;
  }

  /** A page of the equity's daily bars of `size` records, its size written with `zeros` leading zeros. */
  daily(size: number, zeros = 0): string {
    return `/api/v1/equities/${this.equity}/bars?interval=1d&page[size]=${'0'.repeat(zeros)}${size}`;
  }

  /** The equity's `k` latest daily bars: one page (no next link), its size written with `zeros` leading zeros. */
  latest(k: number, zeros = 0): string {
    return `/api/v1/equities/${this.equity}/bars?interval=1d&from=${this.days[k - 1]}&page[size]=${'0'.repeat(zeros)}1000`;
  }

  /** The length of `url`'s JSON body (measured on the reference, once). */
  async length(url: string): Promise<number> {
    let n = this.lengths.get(url);
    if (n === undefined) {
      const r = await this.reference(url);
      expect(r.status, url).toBe(200);
      n = r.body.length;
      this.lengths.set(url, n);
    }
    return n;
  }

  /** The largest k whose page of the k latest bars is at most `bytes` long (0 when none is). */
  private async within(bytes: number): Promise<number> {
    let [lo, hi] = [0, this.days.length];
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((await this.length(this.latest(mid))) <= bytes) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * A page exactly `bytes` long, or null when it would be too short for its own links: the most
   * latest bars that leave 400 bytes or more, filled up with leading zeros. Its last 400 bytes
   * or more are then its links, written as they are (a bar's writer asks for 320 bytes of room
   * ahead, render/json-bytes.ts barTail), so the body fits in a slab up to its last byte.
   */
  async exactly(bytes: number): Promise<string | null> {
    const k = await this.within(bytes - 400);
    if (k === 0) return null;
    const zeros = bytes - (await this.length(this.latest(k)));
    const url = this.latest(k, zeros);
    expect(await this.length(url), 'a leading zero is one byte of the body').toBe(bytes);
    return url;
  }

  /**
   * Has the app render pages of daily bars until one ends exactly at byte `end` of the current
   * slab (which must hold it); each page is checked against the reference.
   */
  async endAt(end: number): Promise<void> {
    const slab = this.renderer.slab;
    const longest = await this.length(this.latest(this.days.length));
    for (;;) {
      expect(this.renderer.slab === slab, 'steering stays in one slab').toBe(true);
      const gap = end - this.renderer.used;
      const last = gap <= longest ? await this.exactly(gap) : null;
      if (last !== null) {
        await this.same(last);
        expect(this.renderer.slab === slab, `the page ending at ${end} was rendered in the slab`).toBe(true);
        return;
      }
      // A page that leaves 1,500 bytes or more (a page of one bar and 400 zeros is about 900).
      expect(gap, `a page can still end at ${end}`).toBeGreaterThan(1500);
      await this.same(this.latest(Math.max(1, await this.within(Math.min(longest, gap - 1500)))));
    }
  }
}

async function answer(app: App, url: string, key: string, accept?: string): Promise<Answer> {
  const r = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...(accept ? { accept } : {}) } });
  return { status: r.statusCode, type: r.headers['content-type'] as string | undefined, body: r.rawPayload };
}
