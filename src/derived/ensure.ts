import type { Store } from '../store/types.js';
import { ensureBarPages } from './bar-pages.js';
import { ensureIndicatorStates } from './indicator-states.js';
import { ensureIndicatorPages } from './indicator-pages.js';

/**
 * Makes again every derivation whose stored rendition is not the code's (bar pages, indicator
 * states, precomputed indicator pages: code's output, made again whenever their rendition
 * changes), in that order: pages and states are made from the packs.
 */
export async function ensureDerived(store: Store): Promise<void> {
  await ensureBarPages(store);
  await ensureIndicatorStates(store);
  await ensureIndicatorPages(store);
}
