/**
 * Fastify's response serializers, compiled by its default compiler (fast-json-stringify), but
 * each distinct schema once per set of shared schemas instead of once per route and status: the
 * API's some 490 route responses are 29 schemas (ErrorResponse and 304 on every route), and
 * compiling them was two thirds of building an app (about 450 ms; a worker's start, every test
 * app). The default compiler reads only the schema (not the route, status or content type), so
 * a schema's serializer is the same function whichever route asks; the bytes do not change.
 *
 * @example Fastify({ schemaController: { compilersFactory: { buildSerializer: serializerPerSchema() } } })
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

export function serializerPerSchema(): SerializerSelector.SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const compiled = new Map<string, SerializerSelector.Serializer>();
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serializer = compiled.get(key);
      if (serializer === undefined) {
        serializer = compile(route);
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}
