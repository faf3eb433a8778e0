import { Type } from '@sinclair/typebox';

/** The probes' and /version's answers. */
export const StatusResponse = Type.Object(
  {
    status: Type.String({ description: 'ok (health) or ready (readiness).' }),
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
