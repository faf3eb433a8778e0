/**
 * `n` copies of `item` separated by commas: the placeholders of an `in (…)` list, or the tuples
 * of a multi-row `values`. list(3) -> '?, ?, ?'; list(2, '(?, ?)') -> '(?, ?), (?, ?)'.
 */
export const list = (n: number, item = '?'): string => Array<string>(n).fill(item).join(', ');
