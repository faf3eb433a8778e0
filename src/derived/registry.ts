/**
 * Every derivation the store keeps (derivation.ts), in the order they are made: pages and
 * states are made from the packs, and each only from the packs, so any order of these would do.
 * The pack merges write them (bar-packs.ts `merge`), migration makes again those whose stored
 * version is not the code's (ensure.ts), and `checkBarPacks` checks them, all through this list.
 *
 * Daily bars derived from 1m bars (derived-daily.ts) are not in it: they are bars, written by
 * ingest from 1m rows (not from packs) and packed like loaded ones, and their derivation is a
 * market rule (market/aggregate.ts `aggregateDaily`, tested against its reference) rather than a
 * rendering; `checkBarPacks` sees them as the bars they are.
 */
import { BAR_PAGES } from './bar-pages.js';
import type { Derivation } from './derivation.js';
import { INDICATOR_PAGES } from './indicator-pages.js';
import { INDICATOR_STATES } from './indicator-states.js';

export const DERIVATIONS: readonly Derivation[] = [BAR_PAGES, INDICATOR_STATES, INDICATOR_PAGES];
