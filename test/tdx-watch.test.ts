/**
 * `mds ingest --tdx PATH --watch` (ingest/tdx-watch.ts, docs/ingest.md "Keeping it current"): the
 * built CLI as a child process watching an install made of real files of ../shared with the last
 * day cut off. The client's writes are played: a `.day` file's last record half written (the batch
 * waits; nothing of the day is served), then completed with the other files' day (one batch: the
 * app over the same store serves the day's bars, values as the records give them); a record that
 * is not a bar (the batch fails, nothing changes, the watch goes on), taken back (the next batch
 * finds nothing new); SIGTERM ends it with 0. Every wait is bounded. Skipped without ../shared.
 */
import { appendFileSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, HAVE_SHARED, STORES, type Harness } from './helpers.js';
import { emptyHarness, exited, mdsChild, tmp } from './ingest-helpers.js';
import { FILES, install, lastDayCut, lastDayRecords } from './tdx-helpers.js';

/** Lines a child writes to one of its streams, and a wait for the next one matching. */
function lines(stream: NodeJS.ReadableStream) {
  const seen: string[] = [];
  let buf = '';
  let waiter: (() => void) | null = null;
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buf += chunk;
    const parts = buf.split('\n');
    buf = parts.pop()!;
    seen.push(...parts);
    waiter?.();
  });
  let read = 0;
  /** The next line (after those already returned) matching `re`, within `ms`. */
  const next = async (re: RegExp, ms = 60_000): Promise<string> => {
    const until = Date.now() + ms;
    for (;;) {
      while (read < seen.length) {
        const l = seen[read++];
        if (re.test(l)) return l;
      }
      if (Date.now() > until) throw new Error(`no line matching ${re} within ${ms} ms; lines: ${seen.join('\n')}`);
      await new Promise<void>((r) => {
        waiter = r;
        setTimeout(r, 200);
      });
    }
  };
  return { seen, next };
}

/** The last record of a real `.day` file as the API writes its bar (prices ×100 in fen, shares). */
function lastBar(rel: string) {
  const b = readFileSync(FILES[rel]);
  const o = b.length - 32;
  const d = b.readUInt32LE(o);
  const px = (at: number) => (b.readUInt32LE(o + at) / 100).toFixed(2);
  return {
    trade_date: `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6)}`,
    open: px(4),
    high: px(8),
    low: px(12),
    close: px(16),
    volume: b.readUInt32LE(o + 24),
  };
}

describe.skipIf(!HAVE_SHARED).each(STORES)('mds ingest --tdx --watch on $name', ({ url }) => {
  let h: Harness;
  let child: ChildProcess | null = null;
  beforeAll(async () => {
    h = await emptyHarness(await url());
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await h?.close();
  });

  it('loads each settled write once, waits for a partial record, survives a failed batch and stops on SIGTERM', async () => {
    const lc1 = lastDayRecords();
    const root = install(tmp('mds-tdx-watch-'), lastDayCut(lc1));
    const day = lastBar('vipdoc/sh/lday/sh600519.day');
    const bars = async (id: string) => (await get(h, `/api/v1/equities/${id}/bars?interval=1d&from=${day.trade_date}`)).body.data;

    child = mdsChild(h.url, 'ingest', '--tdx', root, '--watch', '--settle', '0.5');
    const out = lines(child.stdout!),
      err = lines(child.stderr!);
    await out.next(/^watch: \d+ folders of /);
    expect(await out.next(/ tdx: /)).toMatch(/ tdx: 5 files read whole: \d+ rows inserted, 0 updated; data version \d+ /);
    expect(await bars('600519.SH')).toEqual([]);

    // The client writes 600519's day: its first 20 bytes, then (once the batch is seen waiting) the rest and the other files' day.
    const whole = (rel: string) => readFileSync(FILES[rel]);
    const tail = (rel: string, n: number) => whole(rel).subarray(whole(rel).length - 32 * n);
    const file = (rel: string) => join(root, rel);
    appendFileSync(file('vipdoc/sh/lday/sh600519.day'), tail('vipdoc/sh/lday/sh600519.day', 1).subarray(0, 20));
    expect(await out.next(/^watch: waiting: /)).toContain('1 file end in a partial record, being written');
    expect(await bars('600519.SH')).toEqual([]);
    appendFileSync(file('vipdoc/sh/lday/sh600519.day'), tail('vipdoc/sh/lday/sh600519.day', 1).subarray(20));
    for (const rel of ['vipdoc/sh/lday/sh000300.day', 'vipdoc/sz/lday/sz000001.day']) appendFileSync(file(rel), tail(rel, 1));
    appendFileSync(file('vipdoc/sh/minline/sh688001.lc1'), tail('vipdoc/sh/minline/sh688001.lc1', lc1));
    // One batch reads the four files' new records (a batch the partial record held too long fails first, loading nothing).
    const loaded = await out.next(/ tdx: 4 appended/);
    expect(loaded).toMatch(
      new RegExp(
        ` tdx: 4 appended \\(to ${day.trade_date}\\), 0 new, 0 corrected, 1 unchanged: ${3 + lc1} rows inserted, 0 updated; data version \\d+ `,
      ),
    );
    // The app over the same store serves the day, as the record gives it.
    expect(await bars('600519.SH')).toEqual([expect.objectContaining(day)]);
    const sz = lastBar('vipdoc/sz/lday/sz000001.day');
    expect(await bars('000001.SZ')).toEqual([expect.objectContaining(sz)]);

    // A record that is not a bar: the batch fails, nothing changes, the watch goes on; taken back, nothing new.
    const versions = () => h.store.select('select version, origin from data_versions order by version', []);
    const before = await versions();
    const sz1 = file('vipdoc/sz/lday/sz000001.day');
    const size = readFileSync(sz1).length;
    appendFileSync(sz1, Buffer.alloc(32, 0xff));
    expect(await err.next(/ tdx: failed/)).toMatch(
      / tdx: failed, nothing was changed: 1 error: .*sz000001\.day:record \d+: .*again at the next write$/,
    );
    expect(await versions()).toEqual(before);
    truncateSync(sz1, size);
    expect(await out.next(/ tdx: /)).toMatch(/ tdx: 0 appended, 0 new, 0 corrected, 5 unchanged: nothing new /);
    expect(await versions()).toEqual(before);

    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    expect(out.seen.at(-1)).toBe('watch: stopped');
  }, 120_000);
});
if (!HAVE_SHARED)
  describe('mds ingest --tdx --watch', () => {
    it.skip('skipped: ../shared/data is absent (test/shared-data.ts)', () => {});
  });
