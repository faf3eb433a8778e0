/**
 * Reference handlers for the benchmark, run as a separate process:
 *  - naive: node:http + better-sqlite3 + JSON.stringify of the same bars page;
 *  - static: the same bytes from memory.
 * Usage: tsx bench/reference.ts naive|static DB_FILE PORT [STATIC_FILE]
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

const [mode, file, portArg, staticFile] = process.argv.slice(2);
const port = Number(portArg);

if (mode === 'static') {
  const body = readFileSync(staticFile);
  http
    .createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    })
    .listen(port, '127.0.0.1', () => process.send?.('ready'));
} else {
  const db = new Database(file, { readonly: true });
  const inst = db.prepare('select inst, id from instruments where id = ?');
  const bars = db.prepare(
    'select date, open, high, low, close, volume, amount from bars_1d where inst = ? and date >= ? order by date limit 100',
  );
  const ds = (d: number) => `${String(d).slice(0, 4)}-${String(d).slice(4, 6)}-${String(d).slice(6, 8)}`;
  http
    .createServer((req, res) => {
      const u = new URL(req.url!, 'http://x');
      const id = decodeURIComponent(u.pathname.split('/')[4]);
      const from = Number((u.searchParams.get('from') ?? '1900-01-01').replaceAll('-', ''));
      const i = inst.get(id) as { inst: number; id: string } | undefined;
      if (!i) {
        res.writeHead(404);
        res.end();
        return;
      }
      const data = (bars.all(i.inst, from) as any[]).map((b) => ({
        instrument_id: i.id,
        interval: '1d',
        adjustment: 'none',
        timestamp: `${ds(b.date)}T15:00:00+08:00`,
        trade_date: ds(b.date),
        open: (b.open / 1000).toFixed(2),
        high: (b.high / 1000).toFixed(2),
        low: (b.low / 1000).toFixed(2),
        close: (b.close / 1000).toFixed(2),
        volume: b.volume,
        amount: (b.amount / 100).toFixed(2),
      }));
      const body = JSON.stringify({ data, meta: { next_cursor: null }, links: { self: req.url, next: null } });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body);
    })
    .listen(port, '127.0.0.1', () => process.send?.('ready'));
}
