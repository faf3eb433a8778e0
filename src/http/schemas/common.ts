import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from '../../lib/errors.js';

/** Shared envelope pieces (CONTRACT.md §3, §4). Named with $id so OpenAPI lists them as components. */
export const Meta = Type.Object(
  {
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor of the next page (pass as page[after]); null on the last page.',
    }),
    notice: Type.Optional(
      Type.String({
        description:
          "Why an empty first page is empty, where the operation can say (bars and indicator points of a window that begins after the store's data: " +
          '"The store\'s data ends on 2026-11-20, before this window."); also sent as the `Data-Notice` header. Absent otherwise.',
      }),
    ),
  },
  { $id: 'Meta', additionalProperties: false },
);

export const SelfLinks = Type.Object(
  {
    self: Type.String({ description: 'This page.' }),
    next: Type.Union([Type.String(), Type.Null()], { description: 'The next page, or null on the last page.' }),
  },
  { $id: 'SelfLinks', additionalProperties: false },
);

export const ErrorObject = Type.Object(
  {
    status: Type.String({ description: 'HTTP status code, as a string.' }),
    code: Type.Unsafe<string>({
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: 'Stable machine-readable error code (see docs/api.md).',
    }),
    title: Type.String(),
    detail: Type.String({ description: 'What went wrong, naming the parameter and what was expected.' }),
    source: Type.Optional(Type.Object({ parameter: Type.String() }, { additionalProperties: false })),
  },
  { $id: 'ErrorObject', additionalProperties: false },
);

export const ErrorResponse = Type.Object(
  {
    errors: Type.Array(Type.Ref(ErrorObject)),
    meta: Type.Object({ request_id: Type.String() }),
  },
  { $id: 'ErrorResponse', additionalProperties: false },
);

/** `{data: [...], meta, links}` around a named element schema. */
export function Collection(name: string, item: TSchema) {
  return Type.Object(
    {
      data: Type.Array(Type.Ref(item)),
      meta: Type.Ref(Meta),
      links: Type.Ref(SelfLinks),
    },
    { $id: name, additionalProperties: false },
  );
}

/** `{data: {...}}` around a named record schema. */
export function Single(name: string, item: TSchema) {
  return Type.Object({ data: Type.Ref(item) }, { $id: name, additionalProperties: false });
}

/**
 * The scale of a decimal field: how many decimals its values may have (a price's 3, money's 2).
 * A symbol, so the schema's JSON (the OpenAPI document, the serialisers) stays as it was; an
 * Arrow answer types the field decimal128 of that scale (http/arrow-shape.ts).
 */
export const SCALE: unique symbol = Symbol('mds.decimal-scale');
/** A scale: a number, or a dataset unit's (datasets/units.ts: `PRICE`, `AMOUNT`, `PERCENT`). */
export type Scale = number | { readonly scale?: number };
const scaleOf = (s: Scale): number => {
  const n = typeof s === 'number' ? s : s.scale;
  if (n === undefined) throw new Error('a decimal field needs a scale');
  return n;
};

/** An exact decimal string of at most `scale` decimals. */
export const Decimal = (description: string, scale: Scale) =>
  Object.assign(Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', description }), { [SCALE]: scaleOf(scale) });
export const NullableDecimal = (description: string, scale: Scale) =>
  Type.Union([Decimal(description, scale), Type.Null()], { description });
export const DateString = (description: string) => Type.String({ format: 'date', description });
export const NullableDate = (description: string) => Type.Union([Type.String({ format: 'date' }), Type.Null()], { description });
export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const COMMON_SCHEMAS = [Meta, SelfLinks, ErrorObject, ErrorResponse];
