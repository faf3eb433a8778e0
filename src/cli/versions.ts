/**
 * `mds versions`: the data versions of a store and what each changed (store/versions.ts), oldest
 * first, after `--since` (default: the last 20). `--json` prints them as the reader returns them.
 */
import type { Command } from 'commander';
import { changesSince, currentVersion, type DataChange } from '../store/versions.js';
import { formatDate } from '../lib/time.js';
import type { Store } from '../store/types.js';
import { intAtLeast, type CliIO } from './io.js';

/** A change as one line: dataset (padded to `width`), rows, instruments (the first three, then a count), dates. */
function changeLine(c: DataChange, width: number): string {
  const ids =
    c.instruments === null
      ? 'all instruments'
      : c.instruments.length <= 3
        ? c.instruments.join(',')
        : `${c.instruments.slice(0, 3).join(',')} and ${c.instruments.length - 3} more`;
  const dates = c.from === null ? '' : c.from === c.to ? formatDate(c.from) : `${formatDate(c.from)}..${formatDate(c.to!)}`;
  const rows = `${c.rows.toLocaleString('en-US')} row${c.rows === 1 ? '' : 's'}`;
  return `   ${c.dataset.padEnd(width)}  ${rows.padStart(12)}  ${ids}${dates ? `  ${dates}` : ''}`;
}

export function registerVersions(
  program: Command,
  withStore: <T>(url: string | undefined, fn: (s: Store) => Promise<T>) => Promise<T>,
  db: () => string | undefined,
  io: CliIO,
): void {
  const out = (line: string) => {
    io.stdout.write(line + '\n');
  };
  const count = intAtLeast(0);
  program
    .command('versions')
    .description('list the data versions (every commit that changed data) and what each changed')
    .option('--since <version>', 'versions after this one (default: the last 20)', count)
    .option('--limit <n>', 'at most this many', count, 100)
    .option('--json', 'one JSON array, as the change log holds them')
    .action((o: { since?: number; limit: number; json?: boolean }) =>
      withStore(db(), async (s) => {
        const rows = (sql: string, params: unknown[]) => s.selectRows(sql, params);
        const since = o.since ?? Math.max(0, (await currentVersion(rows)) - 20);
        const versions = await changesSince(rows, since, o.limit);
        if (o.json) {
          out(JSON.stringify(versions));
          return;
        }
        for (const v of versions) {
          out(`${v.version}  ${new Date(v.at).toISOString().slice(0, 19)}Z  ${v.origin}`);
          const width = Math.max(0, ...v.changes.map((c) => c.dataset.length));
          for (const c of v.changes) out(changeLine(c, width));
        }
        if (versions.length === 0) out(`no versions after ${since}`);
      }),
    );
}
