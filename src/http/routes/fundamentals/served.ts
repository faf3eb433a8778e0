import type { App } from '../../services.js';
import { SERVED } from '../../../datasets/registry.js';
import { servedResponse } from '../../schemas/served.js';
import { registerDeclared } from './declared.js';

/**
 * The collections served from declarations (datasets/registry.ts SERVED: statements, forecasts,
 * holdings, management, margin trading, share capital, …): one per dataset and kind it serves,
 * nothing written here for a new one.
 */
export function registerServed(app: App) {
  for (const d of SERVED) for (const kind of d.serve.kinds) registerDeclared(app, d, kind, servedResponse(d.name));
}
