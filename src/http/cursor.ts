import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';

/**
 * Pagination cursors: `base64url(JSON key) . base64url(HMAC(key, query))`.
 * The key is the sort key of the last row served; the signature binds it to the query
 * (operation, path and filters), so a cursor altered or replayed with other filters is
 * rejected. Deterministic, so both stores hand out the same cursor for the same page.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  private sign(key: string, fingerprint: string): Buffer {
    return createHmac('sha256', this.secret).update(key).update('\0').update(fingerprint).digest().subarray(0, 12);
  }

  encode(key: unknown[], fingerprint: string): string {
    const k = Buffer.from(JSON.stringify(key)).toString('base64url');
    return `${k}.${this.sign(k, fingerprint).toString('base64url')}`;
  }

  /** Returns the key, or throws 400 invalid_cursor. */
  decode(cursor: string, fingerprint: string): unknown[] {
    const bad = () => new ApiError({
      code: 'invalid_cursor', parameter: 'page[after]',
      detail: 'page[after] is not a cursor issued for this query; take it from meta.next_cursor of the previous page and keep the other parameters unchanged',
    });
    const dot = cursor.indexOf('.');
    if (dot <= 0 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
    const k = cursor.slice(0, dot);
    const sig = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.sign(k, fingerprint);
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) throw bad();
    try {
      const key = JSON.parse(Buffer.from(k, 'base64url').toString('utf8'));
      // Keys are flat tuples of strings and finite numbers; anything else was not issued here.
      if (Array.isArray(key) && key.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return key;
    } catch { /* fall through */ }
    throw bad();
  }
}
