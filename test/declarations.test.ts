/**
 * Every dataset's declaration (src/datasets/) against the table the migrations made, on every
 * store: the table has exactly the declared columns (file columns and derived ones), a required
 * column is NOT NULL, an optional one nullable (unless the store marks its absence in-band), and
 * the primary key is the natural key (or a surrogate derived on load).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { STORES } from './helpers.js';
import { migrate, openStore } from '../src/derived/open.js';
import type { Store } from '../src/store/types.js';
import { DATASETS } from '../src/datasets/registry.js';

interface Col {
  name: string;
  nullable: boolean;
  pk: number;
}

async function tableColumns(store: Store, table: string): Promise<Col[]> {
  if (store.dialect === 'sqlite') {
    const rows = await store.select<{ name: string; notnull: number; pk: number }>('select name, "notnull", pk from pragma_table_info(?)', [
      table,
    ]);
    return rows.map((r) => ({ name: r.name, nullable: Number(r.notnull) === 0 && Number(r.pk) === 0, pk: Number(r.pk) }));
  }
  const rows = await store.select<{ name: string; nullable: string; pk: number | null }>(
    `select c.column_name as name, c.is_nullable as nullable, k.ordinal_position as pk
       from information_schema.columns c
       left join information_schema.table_constraints t
         on t.table_schema = c.table_schema and t.table_name = c.table_name and t.constraint_type = 'PRIMARY KEY'
       left join information_schema.key_column_usage k
         on k.constraint_name = t.constraint_name and k.table_schema = c.table_schema and k.column_name = c.column_name
      where c.table_schema = current_schema() and c.table_name = ?`,
    [table],
  );
  return rows.map((r) => ({ name: r.name, nullable: r.nullable === 'YES', pk: r.pk === null ? 0 : Number(r.pk) }));
}

describe.each(STORES)('dataset declarations against the $name tables', ({ url }) => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  it('have exactly the columns, nullability and primary key of each table', async () => {
    const store = openStore(await url());
    stores.push(store);
    await migrate(store);
    for (const d of DATASETS) {
      const cols = await tableColumns(store, d.table);
      expect(cols.length, d.table).toBeGreaterThan(0);
      expect(cols.map((c) => c.name).sort(), d.table).toEqual([...d.target.columns].sort());
      const byName = new Map(cols.map((c) => [c.name, c]));
      for (const c of d.columns) {
        const stored = byName.get(c.column)!;
        expect(stored.nullable, `${d.table}.${c.column}`).toBe(!c.required && c.empty === undefined);
      }
      const pk = cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      // The natural key, or a surrogate derived on load (instruments: inst; the id is unique).
      expect(pk, `${d.table} primary key`).toEqual(pk.every((c) => d.derived?.columns.includes(c)) ? pk : d.orderColumns);
      expect(pk.length, d.table).toBeGreaterThan(0);
    }
  });
});
