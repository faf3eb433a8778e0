/**
 * Exact arithmetic on the API's decimal strings, for what the legend derives from two bars (the
 * change and the % change against the previous close): the same rules as the service's derived
 * fields (a difference exact at the larger scale; a percentage to 2 decimals, half away from zero).
 */

interface Scaled {
  units: bigint;
  scale: number;
}

function parse(s: string): Scaled {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) throw new Error(`not a decimal: ${s}`);
  const frac = m[3] ?? '';
  const units = BigInt(m[2] + frac);
  return { units: m[1] ? -units : units, scale: frac.length };
}

function format(units: bigint, scale: number): string {
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString().padStart(scale + 1, '0');
  const whole = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return neg ? `-${whole}` : whole;
}

const rescale = (a: Scaled, scale: number): bigint => a.units * 10n ** BigInt(scale - a.scale);

/** a − b, exactly, at the larger of the two scales. */
export function subtract(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return format(rescale(x, scale) - rescale(y, scale), scale);
}

/** (a − b) / b × 100 to `places` decimals, half away from zero; null when b is zero. */
export function percentChange(a: string, b: string, places = 2): string | null {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const den = rescale(y, scale);
  if (den === 0n) return null;
  const num = (rescale(x, scale) - den) * 100n * 10n ** BigInt(places);
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  return format(neg ? -q : q, places);
}

/** A decimal times ten, without padding zeros: a per-share amount per ten shares (`19.11600` → `191.16`). */
export function timesTen(v: string): string {
  const x = parse(v);
  const out = format(x.units, Math.max(0, x.scale - 1));
  const scaled = x.scale === 0 ? `${out}0` : out;
  return scaled.includes('.') ? scaled.replace(/\.?0+$/, '') : scaled;
}
