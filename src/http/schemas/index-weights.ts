/** Index members and weights over time (datasets/index-weights.ts): the record and its collection. */
import { Collection } from './common.js';
import { recordSchema } from './declared.js';
import { indexWeights } from '../../datasets/index-weights.js';

export const IndexWeight = recordSchema(indexWeights);
export const IndexWeightCollectionResponse = Collection('IndexWeightCollectionResponse', IndexWeight);

export const INDEX_WEIGHT_SCHEMAS = [IndexWeight, IndexWeightCollectionResponse];
