import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { harness, STORES, type Harness } from './helpers.js';

/**
 * Responses held until the end of an event-loop turn (TurnGate.hold) go to the request that
 * asked for them: many concurrent requests over real keep-alive connections, answered in
 * batches, each get the body, status and tag that the same request gets alone.
 */
for (const store of STORES) {
  describe(`responses written in turns, over sockets (${store.name})`, () => {
    let h: Harness;
    let base: string;
    beforeAll(async () => {
      h = await harness(await store.url());
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const addr = h.app.server.address();
      base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answer 256 concurrent requests of mixed pages on 32 connections as each is answered alone', async () => {
      const ids = (
        await h.store.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').orderBy('id').limit(12).execute()
      ).map((r) => r.id);
      const day = (await h.store.db.selectFrom('bars_1m').select('date').orderBy('date', 'desc').limit(1).executeTakeFirstOrThrow()).date;
      const d = `${String(day).slice(0, 4)}-${String(day).slice(4, 6)}-${String(day).slice(6)}`;
      const paths = ids.flatMap((id, i) => [
        `/api/v1/equities/${id}/bars?interval=1d&from=2025-0${1 + (i % 9)}-10&page[size]=${20 + i}`,
        `/api/v1/equities/${id}/bars?interval=1m&date=${d}&page[size]=${30 + i}`,
        `/api/v1/equities/${id}/technical-indicators/macd?interval=1d&from=2025-03-01&page[size]=15`,
        `/api/v1/equities/${id}/bars?interval=1d&adjustment=forward&page[size]=10`,
        `/api/v1/equities/${id}`,
        `/api/v1/equities/${id}/bars?interval=1d&from=nonsense`,
      ]);
      paths.push('/api/v1/equities?market=SH&page[size]=7', '/api/v1/system/health');
      const alone = new Map<string, { status: number; body: string; etag: string | undefined }>();
      for (const p of paths) {
        const r = await h.app.inject({ method: 'GET', url: p, headers: { 'x-api-key': h.key } });
        alone.set(p, { status: r.statusCode, body: r.body, etag: r.headers.etag as string | undefined });
      }
      expect(new Set([...alone.values()].map((r) => r.status))).toEqual(new Set([200, 400]));
      const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
      const order = Array.from({ length: 256 }, (_, i) => paths[(i * 7) % paths.length]);
      const got = await Promise.all(
        order.map(
          (p) =>
            new Promise<{ p: string; status: number; body: string; etag: string | undefined }>((resolve, reject) => {
              http
                .get(`${base}${p}`, { agent, headers: { 'x-api-key': h.key } }, (res) => {
                  const chunks: Buffer[] = [];
                  res.on('data', (c: Buffer) => chunks.push(c));
                  res.on('end', () =>
                    resolve({ p, status: res.statusCode!, body: Buffer.concat(chunks).toString(), etag: res.headers.etag }),
                  );
                })
                .on('error', reject);
            }),
        ),
      );
      // Under this load, responses were held and written in batches.
      expect(h.app.turns.batched).toBeGreaterThan(20);
      // The requests shared the connections: up to 32 of them, each reused.
      expect(Object.values(agent.freeSockets).flat().length).toBeGreaterThan(1);
      agent.destroy();
      for (const g of got) {
        const a = alone.get(g.p)!;
        expect({ p: g.p, status: g.status, etag: g.etag }).toEqual({ p: g.p, status: a.status, etag: a.etag });
        // Error bodies carry the request id; every other body is byte for byte the same.
        if (a.status === 200) expect(g.body, g.p).toBe(a.body);
        else expect(JSON.parse(g.body).errors, g.p).toEqual(JSON.parse(a.body).errors);
      }
    });
  });
}
