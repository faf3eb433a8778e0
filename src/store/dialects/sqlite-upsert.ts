/** SQLite's upsert of a bulk session (sqlite.ts): prepared statements of one target. */
import type Database from 'better-sqlite3';
import type { UpsertCounts, UpsertTarget } from '../types.js';

export type Upsert = (rows: unknown[][], changed?: number[]) => UpsertCounts;

/**
 * Prepared upsert of one target. Rows go in multi-row `insert … on conflict do nothing`
 * statements (its change count is the rows inserted); when a statement inserts fewer rows than
 * it holds, each of its rows then runs `insert … on conflict do update … where <a payload
 * column differs>` (a change means updated; rows just inserted compare equal). The outcome and
 * the counts are those of applying the rows one by one, in order. Asked which rows changed
 * (`changed`, filled with their indices, ascending), the multi-row statement returns the keys it
 * inserted, and a row not inserted changed when its `do update` changes it.
 */
export function upserter(raw: Database.Database, t: UpsertTarget): Upsert {
  const n = t.columns.length;
  const payload = t.columns.filter((c) => !t.key.includes(c));
  const tuple = `(${t.columns.map(() => '?').join(', ')})`;
  const head = (k: number) =>
    `insert into ${t.table} (${t.columns.join(', ')}) values ${Array(k).fill(tuple).join(', ')} on conflict (${t.key.join(', ')})`;
  const per = Math.max(1, Math.min(64, Math.floor(30000 / n)));
  const many = raw.prepare(`${head(per)} do nothing`);
  const one = raw.prepare(`${head(1)} do nothing`);
  const upd =
    payload.length === 0
      ? null
      : raw.prepare(
          `${head(1)} do update set ${payload.map((c) => `${c} = excluded.${c}`).join(', ')}` +
            ` where ${payload.map((c) => `${t.table}.${c} is not excluded.${c}`).join(' or ')}`,
        );
  const flat = new Array<unknown>(per * n);
  const keyIdx = t.key.map((k) => t.columns.indexOf(k));
  const manyKeys = raw.prepare(`${head(per)} do nothing returning ${t.key.join(', ')}`).raw(true);
  const keyText = (values: unknown[]) => values.map((v) => String(v)).join('\u0000');
  /** The rows i..i+per staged in `flat`, the indices of those that changed pushed to `changed`; the rows updated. */
  const chunkChanged = (rows: unknown[][], i: number, changed: number[]): [number, number] => {
    const got = manyKeys.all(flat) as unknown[][];
    const fresh = new Set<number>();
    if (got.length === per) for (let j = i; j < i + per; j++) fresh.add(j);
    else if (got.length) {
      // A key twice in the chunk: its first row is the one inserted.
      const at = new Map<string, number>();
      for (let j = i + per - 1; j >= i; j--) at.set(keyText(keyIdx.map((k) => rows[j][k])), j);
      for (const g of got) fresh.add(at.get(keyText(g))!);
    }
    let updated = 0;
    for (let j = i; j < i + per; j++) {
      if (fresh.has(j)) changed.push(j);
      else if (upd !== null && upd.run(rows[j]).changes) {
        updated++;
        changed.push(j);
      }
    }
    return [got.length, updated];
  };
  return (rows, changed) => {
    let inserted = 0,
      updated = 0,
      i = 0;
    for (; i + per <= rows.length; i += per) {
      for (let j = 0; j < per; j++) {
        const r = rows[i + j];
        for (let k = 0; k < n; k++) flat[j * n + k] = r[k];
      }
      if (changed) {
        const [ins, upds] = chunkChanged(rows, i, changed);
        inserted += ins;
        updated += upds;
        continue;
      }
      const changes = many.run(flat).changes;
      inserted += changes;
      if (changes < per && upd !== null) for (let j = i; j < i + per; j++) updated += upd.run(rows[j]).changes;
    }
    for (; i < rows.length; i++) {
      let changes = one.run(rows[i]).changes;
      inserted += changes;
      if (!changes && upd !== null) updated += changes = upd.run(rows[i]).changes;
      if (changes) changed?.push(i);
    }
    return { inserted, updated, unchanged: rows.length - inserted - updated };
  };
}
