/**
 * Proactive negotiation of a media type by `Accept` (RFC 9110 §12.5.1, §12.4.2): pure, no I/O.
 *
 * Each offer gets the weight (q) of the most specific media range that matches it (`type/sub`
 * with parameters, then `type/sub`, then `type/*`, then `*\/*`; among equally specific ranges
 * the highest q); an offer of weight 0, or matched by no range, is not acceptable. The offer of
 * the highest weight wins; on a tie the one matched more specifically, then the one whose range
 * comes first in the header, then the first offered. A range's parameters (those before `q`)
 * must all be the offer's, values compared without case; parameters after `q` (accept-ext) are
 * ignored. A malformed element (no `type/subtype`, `*\/sub`, a `q` that is not a qvalue) is
 * skipped, as RFC 9110 lets a recipient ignore what it cannot parse.
 */

/** A media type the server can send: `type/subtype` and the parameters it is sent with (lower case). */
export interface Offer {
  readonly type: string;
  readonly params?: Readonly<Record<string, string>>;
}

interface Range {
  type: string;
  subtype: string;
  params: [string, string][];
  q: number;
  /** Its position in the header. */
  at: number;
}

/** qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Splits `s` at `sep` outside quoted strings (a quoted parameter value may hold `,` or `;`). */
function split(s: string, sep: string): string[] {
  const out: string[] = [];
  let from = 0,
    quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === sep && !quoted) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out;
}

/** A parameter's value: a token, or a quoted string unquoted. */
const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v);

/** The media ranges of an Accept value, in order; malformed elements left out. */
export function parseAccept(accept: string): Range[] {
  const out: Range[] = [];
  for (const element of split(accept, ',')) {
    const [media, ...rest] = split(element, ';').map((p) => p.trim());
    const slash = media.indexOf('/');
    if (slash < 0) continue;
    const type = media.slice(0, slash).toLowerCase(),
      subtype = media.slice(slash + 1).toLowerCase();
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    const range: Range = { type, subtype, params: [], q: 1, at: out.length };
    let ok = true;
    for (const p of rest) {
      const eq = p.indexOf('=');
      const name = (eq < 0 ? p : p.slice(0, eq)).trim().toLowerCase();
      const value = eq < 0 ? '' : unquote(p.slice(eq + 1).trim());
      if (name === '') continue;
      if (name === 'q') {
        ok = QVALUE.test(value);
        range.q = Number(value);
        break;
      }
      range.params.push([name, value.toLowerCase()]);
    }
    if (ok) out.push(range);
  }
  return out;
}

/** How specifically `r` matches `offer` (4: type, subtype and parameters; 0: `*\/*`), or -1 when it does not. */
function specificity(r: Range, offer: Offer): number {
  const [type, subtype] = offer.type.split('/');
  if (r.type !== '*' && r.type !== type) return -1;
  if (r.subtype !== '*' && r.subtype !== subtype) return -1;
  for (const [k, v] of r.params) if (offer.params?.[k]?.toLowerCase() !== v) return -1;
  return r.type === '*' ? 0 : r.subtype === '*' ? 1 : r.params.length > 0 ? 3 : 2;
}

/**
 * The index in `offers` of the media type `accept` prefers, or -1 when it accepts none of them
 * (a header that is absent or holds no valid range accepts anything: 0).
 *
 * @example
 * negotiate('*\/*;q=0.1, text/csv', [{ type: 'application/json' }, { type: 'text/csv' }]) // 1
 * negotiate('text/csv;q=0', [{ type: 'application/json' }, { type: 'text/csv' }]) // -1
 */
export function negotiate(accept: string | undefined, offers: readonly Offer[]): number {
  const ranges = accept === undefined ? [] : parseAccept(accept);
  if (ranges.length === 0) return offers.length > 0 ? 0 : -1;
  let best = -1,
    bestQ = 0,
    bestS = -1,
    bestAt = Infinity;
  offers.forEach((offer, i) => {
    // The most specific range matching the offer (the highest q among equally specific ones).
    let q = 0,
      s = -1,
      at = Infinity;
    for (const r of ranges) {
      const rs = specificity(r, offer);
      if (rs > s || (rs === s && rs >= 0 && r.q > q)) [q, s, at] = [r.q, rs, r.at];
    }
    if (s < 0 || q <= 0) return;
    if (q > bestQ || (q === bestQ && (s > bestS || (s === bestS && at < bestAt)))) [best, bestQ, bestS, bestAt] = [i, q, s, at];
  });
  return best;
}
