/**
 * The primary down, then a failover, for real (docs/scaling.md, "The primary down" and
 * "Failover"): a private primary and a streaming replica of it, and two `mds serve` over them:
 * A with DATABASE_URL the primary and DATABASE_REPLICA_URLS the replica, B with DATABASE_URL
 * naming both hosts (`target_session_attrs=read-write`). Readers walk pages on both throughout.
 *
 * 1. The primary stopped (PRIMARY_DOWN_MS): reads go on from the replica (keys read there; a
 *    key revoked just before is refused), readiness says `primary: down`, an ingest fails with
 *    one line; the primary started again, readiness says so.
 * 2. The primary stopped and the replica promoted: B writes to it without a restart (an ingest
 *    through B's URL commits there and B serves its version), readiness tells each step; the
 *    old primary returns as a standby of the new one and B reads from it.
 *
 * Asserted throughout: every answer 200, every page equal to the primary's answer at its version,
 * no walk going back in version, and no fresh request answered at a version below one the
 * server had served before it began. Skipped, saying why, where a private cluster cannot be made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, migrate } from '../src/derived/open.js';
import { generateDemo } from '../src/demo/generate.js';
import { KeyStore } from '../src/auth/keys.js';
import { ingest } from '../src/ingest/load.js';
import { dataset } from '../src/datasets/registry.js';
import type { Store } from '../src/store/types.js';
import { NO_PRIVATE_PG, privatePostgres, type PrivatePostgres } from './private-postgres.js';
import { probe, serve, type Served } from './serve-helpers.js';
import { mds, sleep, tmp } from './ingest-helpers.js';

if (NO_PRIVATE_PG) console.warn(`failover.test: ${NO_PRIVATE_PG}; skipping the failover tests`);

const DEMO = { seed: 7, equities: 20, start: 20250801, end: 20251031, minuteDays: 1, tickDays: 1 };
const PAGE = 7;
/** How long the primary stays stopped in step 1: 8 s; FAILOVER_DOWN_MS=30000 for the run docs/scaling.md reports. */
const PRIMARY_DOWN_MS = Number(process.env.FAILOVER_DOWN_MS ?? 8000);

/** Whether `done` comes true, asked every 100 ms for at most 45 s (a bound, not a timing). */
async function until(done: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + 45_000;
  while (Date.now() < end) {
    if (await done()) return true;
    await sleep(100);
  }
  return false;
}

describe.skipIf(NO_PRIVATE_PG !== null)('the primary down, and a failover (a private primary and a streaming replica)', () => {
  let primary: PrivatePostgres;
  let replica: PrivatePostgres;
  let a: Served;
  let b: Served;
  let writer: Store;
  let key: string;
  let id: string;
  let path: string;
  /** DATABASE_URL of server B: both hosts, the writable one wanted. */
  let both: string;
  const dir = tmp('mds-failover-');
  const rows: [any[], any[]] = [[], []];
  /** The bars each data version holds, as the primary answered them. */
  const answerAt = new Map<number, any[]>();
  let files: [string, string];

  const commit = async (store: Store, s: 0 | 1) => {
    const r = await ingest(store, [{ path: files[s], dataset: dataset('bars_1d')! }]);
    if (!r.ok || r.dataVersion === null) throw new Error(`state ${s} did not commit: ${r.errors.join('\n')}`);
    answerAt.set(r.dataVersion, rows[s]);
    return r.dataVersion;
  };
  const ready = async (srv: Served) => (await probe(`${srv.base}/api/v1/system/readiness`)).body;
  const port = (p: PrivatePostgres) => `127.0.0.1:${p.port}`;
  /** Whether the standby has replayed data version `v`, asked within until's bound. */
  const replayed = async (standby: PrivatePostgres, v: number) => {
    const s = openStore(standby.url);
    try {
      return await until(async () => Number((await s.selectRows('select max(version) from data_versions', []))[0]?.[0] ?? 0) >= v);
    } finally {
      await s.close();
    }
  };

  beforeAll(async () => {
    primary = privatePostgres({ settings: ['synchronous_commit=on'] });
    writer = openStore(primary.url);
    await migrate(writer);
    await generateDemo(writer, DEMO);
    ({ key } = await new KeyStore(writer.db).create('failover'));
    id = (await writer.db.selectFrom('instruments').select('id').where('kind', '=', 'equity').orderBy('id').executeTakeFirstOrThrow()).id;
    path = `/api/v1/equities/${id}/bars?interval=1d&from=2025-08-01&to=2025-10-31`;
    replica = privatePostgres({ replicaOf: primary });
    both = `postgres://postgres@${port(primary)},${port(replica)}/postgres?target_session_attrs=read-write`;
    const timeouts = { PG_CONNECT_TIMEOUT_MS: '1000', PG_STATEMENT_TIMEOUT_MS: '2000', PG_POOL_ACQUIRE_TIMEOUT_MS: '2000' };
    [a, b] = await Promise.all([
      serve({ DATABASE_URL: primary.url, DATABASE_REPLICA_URLS: replica.url, ...timeouts }),
      serve({ DATABASE_URL: both, ...timeouts }),
    ]);
    // Two states of the bars: prices a cent (0) and two cents (1) above those generated.
    const generated = await probe(`${a.base}${path}&page[size]=1000`, key);
    const bars = generated.body.data;
    answerAt.set(Number(generated.dataVersion), bars);
    expect(bars.length).toBeGreaterThan(30);
    const cents = (v: string, c: number) => ((Math.round(Number(v) * 100) + c) / 100).toFixed(2);
    files = [0, 1].map((s) => {
      const f = join(dir, `bars-${s}.csv`);
      const lines = bars.map((x: any) =>
        [id, x.trade_date, cents(x.open, s + 1), cents(x.high, s + 1), cents(x.low, s + 1), cents(x.close, s + 1), x.volume, x.amount].join(
          ',',
        ),
      );
      writeFileSync(f, ['instrument_id,trade_date,open,high,low,close,volume,amount', ...lines].join('\n') + '\n');
      return f;
    }) as [string, string];
    for (const s of [0, 1] as const) {
      const r = await ingest(writer, [{ path: files[s], dataset: dataset('bars_1d')! }]);
      // A learns of the commit from the primary's announcement (or its next check, 250 ms):
      // until then a request may rightly be answered by the replica at the version before.
      // Asked until it is answered at the version committed (at most 10 s).
      let answer = await probe(`${a.base}${path}&page[size]=1000`, key);
      for (let n = 0; Number(answer.dataVersion) < r.dataVersion! && n < 100; n++) {
        await sleep(100);
        answer = await probe(`${a.base}${path}&page[size]=1000`, key);
      }
      expect(Number(answer.dataVersion)).toBe(r.dataVersion);
      rows[s] = answer.body.data;
      answerAt.set(r.dataVersion!, rows[s]);
    }
    expect(rows[0]).not.toEqual(rows[1]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await writer?.close();
    replica?.remove();
    primary?.remove();
  });

  it('reads on through the primary stopped, then B follows the promoted replica without a restart', async () => {
    const bad: string[] = [];
    const answers = { a: 0, b: 0 };
    let done = false;
    /** The highest version each server has answered (a fresh request must not get less). */
    const highest = { a: 0, b: 0 };
    const walker = async (name: 'a' | 'b') => {
      const srv = name === 'a' ? a : b;
      while (!done) {
        let url: string | null = `${srv.base}${path}&page[size]=${PAGE}`;
        const floor = highest[name];
        let at = 0;
        let last = 0;
        while (url !== null && !done) {
          const r = await probe(url, key, 15_000);
          answers[name]++;
          if (r.status !== 200) {
            bad.push(`${name}: ${r.status} ${r.text.slice(0, 200)}`);
            await sleep(50);
            break;
          }
          const v = Number(r.dataVersion);
          const expected = answerAt.get(v);
          if (expected === undefined) bad.push(`${name}: version ${v} is none the primary committed`);
          else if (JSON.stringify(r.body.data) !== JSON.stringify(expected.slice(at, at + PAGE)))
            bad.push(`${name}: page at ${at}, version ${v}: not the primary's`);
          if (at === 0 && v < floor) bad.push(`${name}: a fresh walk at version ${v}, after ${floor} was served`);
          if (v < last) bad.push(`${name}: a walk went back from version ${last} to ${v}`);
          last = v;
          highest[name] = Math.max(highest[name], v);
          at += r.body.data.length;
          url = r.body.links.next ? `${srv.base}${r.body.links.next}` : null;
        }
      }
    };
    const readers = [walker('a'), walker('a'), walker('b'), walker('b')];
    const steps: string[] = [];
    /** Pages answered while the primary was stopped in step 1. */
    const down = { a: 0, b: 0 };
    try {
      // Both read the replica while the primary is up; B's first host is the primary, read as such.
      expect(await until(async () => (await ready(b)).replicas?.[1]?.state === 'up')).toBe(true);
      expect(await ready(b)).toMatchObject({
        status: 'ready',
        primary: 'up',
        writes_to: port(primary),
        replicas: [{ state: 'primary' }, { state: 'up' }],
      });
      let version = await commit(writer, 0);

      // A key revoked just before the primary stops, used meanwhile: refused once its cache lapses (read on the replica).
      const keys = new KeyStore(writer.db);
      const doomed = await keys.create('doomed');
      expect((await probe(`${b.base}${path}`, doomed.key)).status).toBe(200);
      await keys.revoke(doomed.id);
      const revokedOnReplica = openStore(replica.url);
      expect(
        await until(
          async () =>
            (await revokedOnReplica.db.selectFrom('api_keys').select('revoked_at').where('id', '=', doomed.id).executeTakeFirst())
              ?.revoked_at != null,
        ),
      ).toBe(true);
      await revokedOnReplica.close();

      // 1. The primary stopped.
      primary.stop();
      const stoppedAt = Date.now();
      down.a = answers.a;
      down.b = answers.b;
      steps.push('primary stopped');
      for (const srv of [a, b]) expect(await until(async () => (await ready(srv)).primary === 'down')).toBe(true);
      expect(await ready(a)).toMatchObject({ status: 'ready', primary: 'down', replicas: [{ state: 'up', error: null }] });
      expect(await ready(b)).toMatchObject({ status: 'ready', primary: 'down', replicas: [{ state: 'down' }, { state: 'up' }] });
      // Ingest needs the primary: one line says why.
      const refused = await mds(both, 'ingest', 'bars_1d', files[1]);
      expect(refused.code).toBe(3);
      expect(refused.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`no host of the store's URL accepts writes: ${port(primary)} .*; ${port(replica)} is read-only \\(a standby\\)`),
        ),
      ]);
      await sleep(2100);
      const revoked = await probe(`${b.base}${path}`, doomed.key);
      expect([revoked.status, revoked.body?.errors?.[0]?.code]).toEqual([401, 'invalid_api_key']);
      await sleep(Math.max(0, PRIMARY_DOWN_MS - (Date.now() - stoppedAt)));
      down.a = answers.a - down.a;
      down.b = answers.b - down.b;
      primary.start();
      steps.push('primary started');
      for (const srv of [a, b]) expect(await until(async () => (await ready(srv)).primary === 'up')).toBe(true);
      version = await commit(writer, 1);
      expect(await until(async () => highest.a >= version && highest.b >= version)).toBe(true);

      // 2. The primary stopped for good, the replica promoted: B writes to it, A reads from it.
      // Not before the replica has replayed the last commit (as an operator checks before a
      // promotion): `pg_ctl stop -m fast` sends its WAL only to the standbys connected then, and
      // after the primary's restart the replica's WAL receiver reconnects at its next try
      // (wal_retrieve_retry_interval, 5 s). Stopped sooner, the replica lacked the version B had
      // served, so B rightly answered 503 rather than an older one (readiness never said
      // `primary: down`), and the promoted replica would have numbered its next commit as that lost one.
      expect(await replayed(replica, version)).toBe(true);
      await writer.close();
      primary.stop();
      steps.push('primary stopped');
      expect(await until(async () => (await ready(b)).primary === 'down')).toBe(true);
      replica.promote();
      steps.push('replica promoted');
      expect(await until(async () => (await ready(b)).writes_to === port(replica))).toBe(true);
      expect(await ready(b)).toMatchObject({
        primary: 'up',
        writes_to: port(replica),
        replicas: [{ state: 'down' }, { state: 'primary' }],
      });
      writer = openStore(both);
      const promoted = await commit(writer, 0);
      expect(promoted).toBeGreaterThan(version);
      const onB = await probe(`${b.base}${path}&page[size]=1000`, key);
      expect([onB.status, Number(onB.dataVersion)]).toEqual([200, promoted]);
      expect(onB.body.data).toEqual(rows[0]);
      expect(await until(async () => highest.a >= promoted && highest.b >= promoted)).toBe(true);

      // The old primary returns as a standby of the new one: B reads from it.
      primary.follow(replica);
      steps.push('old primary following the new');
      expect(await until(async () => (await ready(b)).replicas?.[0]?.state === 'up')).toBe(true);
      expect(await ready(b)).toMatchObject({
        primary: 'up',
        writes_to: port(replica),
        replicas: [{ state: 'up', behind: 0 }, { state: 'primary' }],
      });
    } finally {
      done = true;
      await Promise.all(readers);
    }
    expect(bad.slice(0, 10)).toEqual([]);
    expect(answers.a).toBeGreaterThan(100);
    expect(answers.b).toBeGreaterThan(100);
    console.log(
      `failover.test: ${answers.a} pages from A, ${answers.b} from B, none failed, the primary stopped ${PRIMARY_DOWN_MS / 1000} s (${down.a} from A and ${down.b} from B meanwhile); steps: ${steps.join(', ')}`,
    );
    for (const srv of [a, b]) expect(srv.logs.filter((l) => l.level >= 50)).toEqual([]);
  }, 300_000);
});
