import { Type } from '@sinclair/typebox';
import type { DataChange, DataVersion, LogFilter } from '../../../store/versions.js';
import { formatDate, formatTimestamp } from '../../../lib/time.js';

/** The largest data version a store can hold (data_versions.version is a 32-bit integer). */
export const MAX_VERSION = 2 ** 31 - 1;

/** The filters /changes and /events share (docs/api.md, "Changes"). */
export const logFilterParams = {
  dataset: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'Only versions that changed this dataset (`bars_1d`, `income_statements`, `indicator_states`, …), with only its change.',
    }),
  ),
  instrument_id: Type.Optional(
    Type.String({
      maxLength: 32,
      description:
        'Only versions that changed this instrument (CODE.MARKET), with only the changes that name it or all instruments (`instruments: "all"`).',
    }),
  ),
};

/** `after`: the version a client holds. */
export const afterParam = (what: string, absent = 'default 0: from the first') => ({
  after: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_VERSION,
      description: `The data version you hold: ${what} (${absent}).`,
    }),
  ),
});

/** The store's filter of a request's query. */
export function filterOf(q: { dataset?: string; instrument_id?: string }): LogFilter {
  return {
    ...(q.dataset !== undefined ? { dataset: q.dataset } : {}),
    ...(q.instrument_id !== undefined ? { instrument: q.instrument_id } : {}),
  };
}

/** What a change is as the API shows it: dates as dates, all instruments as `all`. */
const changeRecord = (c: DataChange) => ({
  dataset: c.dataset,
  rows: c.rows,
  instruments: c.instruments ?? ('all' as const),
  from: c.from === null ? null : formatDate(c.from),
  to: c.to === null ? null : formatDate(c.to),
});

/** A data version as the API shows it (schemas/changes.ts DataVersionRecord). */
export function versionRecord(v: DataVersion) {
  return {
    version: v.version,
    committed_at: formatTimestamp(Math.floor(v.at / 1000)),
    origin: v.origin,
    changes: v.changes.map(changeRecord),
  };
}
