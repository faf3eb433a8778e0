/** A field as CSV: quoted when it holds a comma, quote, line break or surrounding space. */
export function csvField(s: string): string {
  if (s === '') return s;
  if (/[",\r\n]/.test(s) || s[0] === ' ' || s[s.length - 1] === ' ') return `"${s.replace(/"/g, '""')}"`;
  return s;
}
