import { Type } from '@sinclair/typebox';

/** The probes' and /version's answers. */
export const StatusResponse = Type.Object(
  {
    status: Type.String({ description: 'ok (health) or ready (readiness).' }),
    primary: Type.Optional(
      Type.Union([Type.Literal('up'), Type.Literal('down')], {
        description:
          'Readiness with PostgreSQL replicas: whether the primary answers. Down, reads go on from the replicas that have every version this server has served, and key checks from a replica or the answers cached; ingest waits for a primary.',
      }),
    ),
    writes_to: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description:
          'Readiness with PostgreSQL replicas: the host (host:port) of DATABASE_URL written to, the last found while none answers (a DATABASE_URL of several hosts follows the writable one).',
      }),
    ),
    replicas: Type.Optional(
      Type.Array(
        Type.Object(
          {
            url: Type.String({
              description: 'The replica (DATABASE_REPLICA_URLS, or another host of a DATABASE_URL naming several), its password hidden.',
            }),
            state: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('primary')], {
              description:
                'up: read snapshots may go to it; down: skipped until it answers again (checked every 250 ms); primary: a host of DATABASE_URL that is the primary now (read as the primary).',
            }),
            version: Type.Union([Type.Integer(), Type.Null()], { description: 'The data version it has replayed, as last seen.' }),
            behind: Type.Union([Type.Integer(), Type.Null()], {
              description: 'Versions the primary has committed that it has not replayed.',
            }),
            error: Type.Union([Type.String(), Type.Null()], { description: 'Why it is down.' }),
          },
          { additionalProperties: false },
        ),
        {
          description:
            "Readiness with PostgreSQL replicas: each one's state. A replica down does not make the service unready: the primary answers for it; nor does the primary down while a replica has every version served.",
        },
      ),
    ),
  },
  { $id: 'StatusResponse', additionalProperties: false },
);

export const VersionResponse = Type.Object(
  {
    name: Type.String(),
    version: Type.String({ description: 'Service version (semver).' }),
    api_version: Type.String({ description: 'Version in the path: v1.' }),
    node: Type.String({ description: 'Node.js version.' }),
  },
  { $id: 'VersionResponse', additionalProperties: false },
);

export const SYSTEM_SCHEMAS = [StatusResponse, VersionResponse];
