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
  return format(roundDiv(num, den), places);
}

/** num / den rounded half away from zero to an integer. */
function roundDiv(num: bigint, den: bigint): bigint {
  const neg = num < 0n !== den < 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  return neg ? -q : q;
}

/** a / b to `places` decimals, half away from zero; null when b is zero (`divide('17595387364.00', '12157900', 2)` → `1447.26`). */
export function divide(a: string, b: string, places: number): string | null {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const den = rescale(y, scale);
  if (den === 0n) return null;
  return format(roundDiv(rescale(x, scale) * 10n ** BigInt(places), den), places);
}

/** The exact sum of decimals, at the largest scale among them (`0` for none). */
export function sum(values: string[]): string {
  const xs = values.map(parse);
  const scale = Math.max(0, ...xs.map((x) => x.scale));
  return format(
    xs.reduce((acc, x) => acc + rescale(x, scale), 0n),
    scale,
  );
}

/** The value moved `places` decimal places left (`shift('12157900', 2)` → `121579.00`), exact. */
export function shiftLeft(v: string, places: number): string {
  const x = parse(v);
  return format(x.units, x.scale + places);
}

/** Rounds a decimal to `places`, half away from zero (`round('1759.5387364', 2)` → `1759.54`). */
export function round(v: string, places: number): string {
  const x = parse(v);
  if (x.scale <= places) return format(rescale(x, places), places);
  return format(roundDiv(x.units, 10n ** BigInt(x.scale - places)), places);
}

/** The sign of a decimal: -1, 0 or 1. */
export function sign(v: string): -1 | 0 | 1 {
  const x = parse(v);
  return x.units < 0n ? -1 : x.units > 0n ? 1 : 0;
}

/** A decimal times ten, without padding zeros: a per-share amount per ten shares (`19.11600` → `191.16`). */
export function timesTen(v: string): string {
  const x = parse(v);
  const out = format(x.units, Math.max(0, x.scale - 1));
  const scaled = x.scale === 0 ? `${out}0` : out;
  return scaled.includes('.') ? scaled.replace(/\.?0+$/, '') : scaled;
}
