import { Type } from '@sinclair/typebox';
import { Collection, NullableDate, Timestamp } from './common.js';

/** What one data version changed in one dataset (store/versions.ts DataChange). */
export const DatasetChange = Type.Object(
  {
    dataset: Type.String({
      description:
        'The dataset changed, by its ingest name (`bars_1d`, `income_statements`), or the derivation rebuilt (`indicator_states`).',
    }),
    rows: Type.Integer({ description: 'Rows inserted or updated (a derivation: what it made, in its unit).' }),
    instruments: Type.Union([Type.Array(Type.String()), Type.Literal('all')], {
      description:
        'The instruments whose rows changed, by id, ascending; `all` when every instrument may have changed (or which is not known).',
    }),
    from: NullableDate('The first date of the rows changed; null when the dataset has no dates (or they are not known).'),
    to: NullableDate('The last date of the rows changed; null as `from`.'),
  },
  { $id: 'DatasetChange', additionalProperties: false },
);

/** A committed data version and what it changed: a record of /changes and the data of an /events event. */
export const DataVersionRecord = Type.Object(
  {
    version: Type.Integer({
      description: 'The data version: 1, 2, 3, … in commit order (the `Data-Version` header of a response read at it).',
    }),
    committed_at: Timestamp('When it was committed, in market time (+08:00), to the second.'),
    origin: Type.String({
      description:
        'What committed it: `ingest of N files` (or a Tongdaxin update), `derivation NAME rebuilt (…)`, `indicators precomputed: …`, `demo build (…)`.',
    }),
    changes: Type.Array(Type.Ref(DatasetChange), {
      description:
        'What it changed, a dataset each, in name order (with `dataset=` or `instrument_id=`, the matching ones); empty for a version recorded without its changes (it may have changed anything).',
    }),
  },
  { $id: 'DataVersionRecord', additionalProperties: false },
);

export const DataVersionCollectionResponse = Collection('DataVersionCollectionResponse', DataVersionRecord);

export const CHANGE_SCHEMAS = [DatasetChange, DataVersionRecord, DataVersionCollectionResponse];
