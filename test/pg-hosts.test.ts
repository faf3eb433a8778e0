/** DATABASE_URL naming several hosts, as libpq reads it (store/dialects/postgres-hosts.ts). */
import { describe, expect, it } from 'vitest';
import { pgHosts } from '../src/store/dialects/postgres-hosts.js';
import { loadConfig } from '../src/app/config.js';

describe('pgHosts', () => {
  it('reads each host and port, the default port 5432, and target_session_attrs', () => {
    const h = pgHosts('postgres://mds:secret@db1:5433,db2,[::1]:6000/mds?sslmode=disable&target_session_attrs=read-write');
    expect(typeof h).toBe('object');
    if (typeof h === 'string') return;
    expect(h.hosts).toEqual(['db1:5433', 'db2:5432', '[::1]:6000']);
    expect(h.writable).toBe(true);
    // Each host's own URL: the user, database and other parameters kept, target_session_attrs removed.
    expect([0, 1, 2].map(h.urlOf)).toEqual([
      'postgres://mds:secret@db1:5433/mds?sslmode=disable',
      'postgres://mds:secret@db2:5432/mds?sslmode=disable',
      'postgres://mds:secret@[::1]:6000/mds?sslmode=disable',
    ]);
    const one = pgHosts('postgresql://db/mds');
    expect(typeof one !== 'string' && [one.hosts, one.writable, one.urlOf(0)]).toEqual([['db:5432'], false, 'postgresql://db:5432/mds']);
    const primary = pgHosts('postgres://a,b/mds?target_session_attrs=primary');
    expect(typeof primary !== 'string' && primary.writable).toBe(true);
  });

  it('says what is wrong with a URL it cannot use', () => {
    expect(pgHosts('postgres://a,,b/mds')).toBe('an empty host is not a host or host:port');
    expect(pgHosts('postgres://a:99999/mds')).toBe('the port of a:99999 is not 1..65535');
    expect(pgHosts('postgres://a,b/mds?target_session_attrs=standby')).toBe(
      'target_session_attrs=standby is not one of any, read-write, primary (replicas are DATABASE_REPLICA_URLS)',
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:pw@a,b:x/mds' })).toThrow(
      'DATABASE_URL must be a SQLite file path or a postgres://user@host:port/db URL (host:port,host:port… for several), got postgres://u:***@a,b:x/mds: the host b:x is not a host or host:port',
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://a:5432,b:5433/mds?target_session_attrs=read-write' }).databaseUrl).toBe(
      'postgres://a:5432,b:5433/mds?target_session_attrs=read-write',
    );
  });
});
