/**
 * Collections as files: a client that asks for `text/csv` or `application/x-ndjson` (Accept)
 * before JSON gets the records in the format `mds ingest` reads (docs/api.md, "Files"). The
 * format is part of the response's ETag (http-cache.ts), and responses vary on Accept.
 */
export type FileFormat = 'csv' | 'ndjson';

export const FILE_TYPES: Readonly<Record<FileFormat, string>> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' };

/** The file format an Accept header asks for before JSON (text/csv, application/x-ndjson), or null. fileFormat('text/csv') -> 'csv'. */
export function fileFormat(accept: string | undefined): FileFormat | null {
  if (!accept) return null;
  for (const part of accept.split(',')) {
    const type = part.split(';')[0].trim().toLowerCase();
    if (type === 'text/csv') return 'csv';
    if (type === 'application/x-ndjson' || type === 'application/ndjson') return 'ndjson';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return null;
  }
  return null;
}
