import type { App } from '../../services.js';
import { ShareCapitalCollectionResponse } from '../../schemas/fundamentals.js';
import { shareCapital } from '../../../datasets/share-capital.js';
import { compiled } from '../../../datasets/registry.js';
import { registerDeclared } from './declared.js';

/** listShareCapital (CONTRACT.md §1): an equity's share capital changes. */
export function registerShareCapital(app: App) {
  registerDeclared(app, {
    operationId: 'listShareCapital',
    segment: 'share-capital',
    dataset: compiled(shareCapital),
    window: 'change_date',
    date: 'in-force',
    summary: 'Share capital changes (股本变动), ascending by change date.',
    description:
      'One record per change, with the counts after it: total shares, tradable A shares (float) and restricted A shares. ' +
      'The counts in force on a day are those of the latest change on or before it (`date`): turnover rates and market values of past days use them. ' +
      'from/to select on change_date.',
    response: ShareCapitalCollectionResponse,
  });
}
