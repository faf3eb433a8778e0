import { LRUCache } from 'lru-cache';
import type { PointBody } from './json-bytes.js';

/**
 * The record writers made for instruments and their parameters (bar-writers.ts,
 * indicator-writers.ts: a few hundred bytes each), kept so that later requests reuse them, and
 * the point bodies compiled per indicator key list. One per owner (the app's query caches, a
 * derivation's rebuild): render itself keeps nothing between calls.
 */
export class WriterCache {
  private readonly writers = new LRUCache<string, (...args: any[]) => void>({ max: 20_000 });
  /** Compiled PointBody per key list (indicator-writers.ts pointBody). */
  readonly bodies = new Map<string, PointBody>();

  /** The writer kept under `key`, made by `make` the first time. */
  memo<W extends (...args: any[]) => void>(key: string, make: () => W): W {
    let w = this.writers.get(key) as W | undefined;
    if (!w) {
      w = make();
      this.writers.set(key, w);
    }
    return w;
  }
}
