import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { get, harness, STORES, TINY_DEMO, type Harness } from './helpers.js';
import { mds, snapshot, tmp } from './ingest-helpers.js';
import { exportDatasets } from '../src/ingest/export.js';
import { dataset } from '../src/datasets/registry.js';
import { currentVersion } from '../src/store/versions.js';

const version = (h: Harness) => currentVersion((q, p) => h.store.selectRows(q, p));

for (const kind of STORES) {
  describe(`ingest is idempotent and all-or-nothing (${kind.name})`, () => {
    let h: Harness;
    const dir = tmp();
    const file = join(dir, 'bars_1d.csv');
    let lines: string[];
    beforeAll(async () => {
      h = await harness(await kind.url(), TINY_DEMO);
      await exportDatasets(h.store, [dataset('bars_1d')!], { path: file });
      lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    });
    afterAll(async () => {
      await h?.close();
    });

    it('loading the same file twice changes nothing', async () => {
      const before = await snapshot(h.store);
      const v = await version(h);
      const n = lines.length - 1;
      for (let i = 0; i < 2; i++) {
        const r = await mds(h.url, 'ingest', 'bars_1d', file);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(`bars_1d: ${n} rows from 1 file: 0 inserted, 0 updated, ${n} unchanged`);
        expect(r.stdout).toMatch(/^no changes: /m);
      }
      expect(await version(h)).toBe(v);
      expect(await snapshot(h.store)).toEqual(before);
    });

    it('a corrected row replaces the old one by its natural key', async () => {
      // Row 20 (line 21): lower the close to the low (stays within the bar's range).
      const f = lines[20].split(',');
      const oldClose = f[5];
      f[5] = f[4];
      expect(f[5]).not.toBe(oldClose);
      const fixed = join(dir, 'corrected.csv');
      writeFileSync(fixed, [...lines.slice(0, 20), f.join(','), ...lines.slice(21)].join('\n') + '\n');
      const r = await mds(h.url, 'ingest', 'bars_1d', fixed);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`bars_1d: ${lines.length - 1} rows from 1 file: 0 inserted, 1 updated, ${lines.length - 2} unchanged`);
      expect(r.stdout).toMatch(/^committed: /m);
      const bar = await get(
        h,
        `/api/v1/${f[0].endsWith('.SH') && f[0].startsWith('000') ? 'indices' : 'equities'}/${f[0]}/bars?interval=1d&date=${f[1]}`,
      );
      expect(bar.body.data[0].close).toBe(f[5]);
      // Loading the original again restores the row.
      const back = await mds(h.url, 'ingest', 'bars_1d', file);
      expect(back.stdout).toContain('0 inserted, 1 updated');
    });

    it('one bad row at a known line: exit 2, the error names file:line:column, nothing changes', async () => {
      const before = await snapshot(h.store);
      const v = await version(h);
      const f = lines[37].split(','); // line 38
      f[5] = '12.3456';
      // Line 10 holds a valid correction that a loader without atomicity would apply.
      const g = lines[9].split(',');
      g[5] = g[5] === g[4] ? g[3] : g[4];
      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, [...lines.slice(0, 9), g.join(','), ...lines.slice(10, 37), f.join(','), ...lines.slice(38)].join('\n') + '\n');
      const r = await mds(h.url, 'ingest', 'bars_1d', bad);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('bad.csv:38:6: close: expected a positive decimal string with at most 3 decimals (CNY), got "12.3456"');
      expect(r.stdout).toMatch(/failed: 1 error; nothing was changed/);
      expect(await version(h)).toBe(v);
      expect(await snapshot(h.store)).toEqual(before);
    });

    it('a board goes with an equity only (KINDS.board): one missing or one too many is refused at its line', async () => {
      const before = await snapshot(h.store);
      const bad = join(tmp(), 'instruments.csv');
      writeFileSync(
        bad,
        'instrument_id,kind,board,name\n600998.SH,equity,main,好股票\n600997.SH,equity,,无板块\n000999.SH,index,main,有板块指数\n',
      );
      const r = await mds(h.url, 'ingest', 'instruments', bad, '--max-errors', '10');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${bad}:3:3: board: expected a board for an equity`);
      expect(r.stderr).toContain(`${bad}:4:3: board: expected no board for an index or fund`);
      expect(r.stderr).not.toContain(`${bad}:2:`);
      expect(await snapshot(h.store)).toEqual(before);
    });

    it('a command with a good file and a bad one changes nothing either; errors are bounded', async () => {
      const before = await snapshot(h.store);
      const sub = tmp();
      writeFileSync(join(sub, 'instruments.csv'), 'instrument_id,kind,board,name\n600999.SH,equity,main,新股票\n');
      const rows = Array.from({ length: 30 }, (_, i) => `600999.SH,2025-0${1 + (i % 9)}-3x,1,1,1,1,1,1`);
      writeFileSync(join(sub, 'bars_1d.csv'), [lines[0], ...rows].join('\n') + '\n');
      const r = await mds(h.url, 'ingest', '--dir', sub, '--max-errors', '5');
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('instruments: 1 rows from 1 file');
      const listed = r.stderr.split('\n').filter((l) => l.startsWith(join(sub, 'bars_1d.csv:')));
      expect(listed).toHaveLength(5);
      expect(r.stderr).toContain('… and 25 more errors');
      expect(await snapshot(h.store)).toEqual(before);
      expect((await get(h, '/api/v1/equities/600999.SH')).status).toBe(404);
    });

    it('a key repeated within a file behaves as rows applied in order: the last one wins', async () => {
      const f = lines[3].split(',');
      const a = [...f],
        b = [...f];
      a[5] = a[5] === a[4] ? a[3] : a[4];
      const twice = join(dir, 'twice.csv');
      writeFileSync(twice, [lines[0], a.join(','), lines[4], b.join(',')].join('\n') + '\n');
      const r = await mds(h.url, 'ingest', 'bars_1d', twice);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('bars_1d: 3 rows from 1 file: 0 inserted, 2 updated, 1 unchanged');
      const id = f[0];
      const bar = await get(
        h,
        `/api/v1/${id.startsWith('000') && id.endsWith('.SH') ? 'indices' : 'equities'}/${id}/bars?interval=1d&date=${f[1]}`,
      );
      expect(bar.body.data[0].close).toBe(b[5]);
    });

    it('--dry-run validates only', async () => {
      const before = await snapshot(h.store);
      const f = lines[5].split(',');
      f[5] = f[4];
      const changed = join(dir, 'dry.csv');
      writeFileSync(changed, [lines[0], f.join(',')].join('\n') + '\n');
      const r = await mds(h.url, 'ingest', 'bars_1d', changed, '--dry-run');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('bars_1d: 1 rows from 1 file, valid');
      expect(r.stdout).toMatch(/^dry run: .* nothing was written/m);
      expect(await snapshot(h.store)).toEqual(before);
      const bad = join(dir, 'dry-bad.csv');
      writeFileSync(bad, [lines[0], f.slice(0, 7).join(',') + ',-1'].join('\n') + '\n');
      const b = await mds(h.url, 'ingest', 'bars_1d', bad, '--dry-run');
      expect(b.code).toBe(2);
      expect(b.stderr).toContain('dry-bad.csv:2:8: amount: expected a non-negative decimal');
    });

    it('usage and I/O problems exit 1', async () => {
      expect((await mds(h.url, 'ingest', 'bars_2d', 'x.csv')).code).toBe(1);
      expect((await mds(h.url, 'ingest', 'bars_1d', join(dir, 'missing.csv'))).code).toBe(1);
      const gz = join(dir, 'broken.csv.gz');
      writeFileSync(gz, Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5]));
      expect((await mds(h.url, 'ingest', 'bars_1d', gz)).code).toBe(1);
      expect((await mds(h.url, 'export')).code).toBe(1);
    });

    it('an unreachable store exits 3', async () => {
      const r = await mds('postgres://postgres@127.0.0.1:1/none', 'ingest', 'bars_1d', file);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^mds: cannot open the store postgres:\/\/postgres@127.0.0.1:1\/none: .*\(nothing was changed\)\n$/);
    });
  });
}
