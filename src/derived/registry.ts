/**
 * Every derivation the store keeps (derivation.ts), in the order migration makes them: daily
 * bars derived from 1m bars first (rewriting one merges it into its pack, which writes what the
 * packs give), then indicator states and pages and the markets' days, each made from the packs alone. The pack merges write
 * them (bar-packs.ts `merge`), migration makes again those whose stored version is not the
 * code's (ensure.ts), and `checkBarPacks` (`mds check`) checks them, all through this list.
 */
import type { Derivation } from './derivation.js';
import { DERIVED_DAILY } from './derived-daily-rebuild.js';
import { INDICATOR_PAGES } from './indicator-pages.js';
import { INDICATOR_STATES } from './indicator-states.js';
import { MARKET_DAYS } from './market-days.js';

export const DERIVATIONS: readonly Derivation[] = [DERIVED_DAILY, INDICATOR_STATES, INDICATOR_PAGES, MARKET_DAYS];
