import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate, openStore, type Store } from './store/store.js';
import { KeyStore } from './auth/keys.js';
import { generateDemo, type DemoOptions } from './demo/generate.js';

export interface Opened { store: Store; created: boolean; firstKey?: string }

const isPostgres = (url: string) => /^postgres(ql)?:\/\//.test(url);

/**
 * Opens the configured store, migrating it. A SQLite file that does not exist yet is built
 * aside with the demo market and an API key, then renamed into place, so a killed first run
 * never leaves a half-built store behind.
 */
export async function openConfiguredStore(url: string, demo: Partial<DemoOptions> | null,
  log: (msg: string) => void = () => {}): Promise<Opened> {
  if (isPostgres(url) || url === ':memory:' || existsSync(url) || demo === null) {
    const store = openStore(url);
    await migrate(store);
    return { store, created: false };
  }
  mkdirSync(dirname(url), { recursive: true });
  const tmp = `${url}.building-${process.pid}`;
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  const started = Date.now();
  log(`First run: building the demo market into ${url} (seed ${demo.seed ?? 1}) ...`);
  const building = openStore(tmp);
  let firstKey: string;
  try {
    await migrate(building);
    await generateDemo(building, demo);
    firstKey = (await new KeyStore(building.db).create('default')).key;
    await building.close();
  } catch (e) {
    await building.close().catch(() => {});
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
    throw e;
  }
  renameSync(tmp, url);
  for (const f of [`${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  log(`Demo market ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  const store = openStore(url);
  await migrate(store);
  return { store, created: true, firstKey };
}
