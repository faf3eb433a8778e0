import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../lib/errors.js';

/**
 * What a part of a sort key holds: `date` YYYYMMDD (0..99991231), `time` epoch seconds (0 to
 * the end of 9999), `int` a count or rank (0..2^31-1), `str` text without control characters.
 * A cursor's key is checked against its operation's parts before any store sees it, so a key
 * the service could not have issued is refused alike on every store.
 */
export type KeyPart = 'date' | 'time' | 'int' | 'str';

const MAX: Record<Exclude<KeyPart, 'str'>, number> = { date: 99991231, time: 253402300799, int: 2 ** 31 - 1 };
const CONTROL = /[\u0000-\u001f\u007f]/;
const SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

function fits(v: unknown, part: KeyPart): boolean {
  if (part === 'str') return typeof v === 'string' && !CONTROL.test(v);
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX[part];
}

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

  /**
   * Returns the key, of the types `parts` gives, or throws 400 invalid_cursor. The signature
   * is compared as written, whole: a character added, removed or changed anywhere is refused.
   */
  decode<K extends unknown[]>(cursor: string, fingerprint: string, parts: readonly KeyPart[]): K {
    const bad = () =>
      new ApiError({
        code: 'invalid_cursor',
        parameter: 'page[after]',
        detail:
          'page[after] is not a cursor issued for this query; take it from meta.next_cursor of the previous page and keep the other parameters unchanged',
      });
    if (!SHAPE.test(cursor)) throw bad();
    const dot = cursor.indexOf('.');
    const k = cursor.slice(0, dot);
    const sig = Buffer.from(cursor.slice(dot + 1));
    const expected = Buffer.from(this.sign(k, fingerprint).toString('base64url'));
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) throw bad();
    let key: unknown;
    try {
      key = JSON.parse(Buffer.from(k, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    if (!Array.isArray(key) || key.length !== parts.length) throw bad();
    for (let i = 0; i < parts.length; i++) if (!fits(key[i], parts[i])) throw bad();
    return key as K;
  }
}
