/** A small Tongdaxin install made of real files of ../shared (tdx-update and tdx-watch tests). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from './helpers.js';

const INSTALL = join(SHARED, 'tdx_install');
/** The real files, by their path in the install made here. */
export const FILES: Record<string, string> = {
  'vipdoc/sh/lday/sh600519.day': join(SHARED, 'ohlcv/tdx_day/sh600519.day'),
  'vipdoc/sh/lday/sh000300.day': join(SHARED, 'ohlcv/tdx_day/sh000300.day'),
  'vipdoc/sz/lday/sz000001.day': join(SHARED, 'ohlcv/tdx_day/sz000001.day'),
  'vipdoc/sh/minline/sh688001.lc1': join(INSTALL, 'vipdoc/sh/minline/sh688001.lc1'),
  'T0002/hq_cache/gbbq': join(INSTALL, 'T0002/hq_cache/gbbq'),
  'T0002/hq_cache/shm.tnf': join(INSTALL, 'T0002/hq_cache/shm.tnf'),
  'T0002/hq_cache/szm.tnf': join(INSTALL, 'T0002/hq_cache/szm.tnf'),
};

/** Writes the install into `root`: each file whole, or with its last `cut(rel)` records (32 bytes) cut off. */
export function install(root: string, cut: (rel: string) => number = () => 0, edit: (rel: string, b: Buffer) => void = () => {}): string {
  for (const [rel, src] of Object.entries(FILES)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    const b = Buffer.from(readFileSync(src));
    edit(rel, b);
    writeFileSync(join(root, rel), b.subarray(0, b.length - 32 * cut(rel)));
  }
  return root;
}

/** The records of the `.lc1` file's last day (240 or 241 one-minute bars). */
export function lastDayRecords(): number {
  const b = readFileSync(FILES['vipdoc/sh/minline/sh688001.lc1']);
  const last = b.readUInt16LE(b.length - 32);
  let n = 0;
  for (let o = b.length - 32; o >= 0 && b.readUInt16LE(o) === last; o -= 32) n++;
  return n;
}

/** The last day cut off every bar file (the client has not appended it yet). */
export const lastDayCut = (lc1: number) => (rel: string) => (rel.endsWith('.day') ? 1 : rel.endsWith('.lc1') ? lc1 : 0);
