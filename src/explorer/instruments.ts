import { ApiFailure, pathOf, type Client, type Page } from './api.js';

/** An instrument as the API's search returns it (the fields the explorer reads). */
export interface Instrument {
  id: string;
  code: string;
  market: string;
  kind: 'equity' | 'index' | 'fund';
  board: string | null;
  name: string;
  is_st: boolean;
  list_date: string | null;
}

/** The API's path of a kind's instruments. */
export const kindPath = (kind: Instrument['kind']): string => ({ equity: '/equities', index: '/indices', fund: '/funds' })[kind];

/** The URL of a search (searchInstruments); the early script (early.ts) resolves an id by it too. */
export const searchUrl = (q: string, size: number): string => pathOf('/instruments', { q, 'page[size]': size });

/** Finds instruments as a user types: id, code, pinyin initials, name (searchInstruments). */
export async function search(client: Client, q: string, size = 10): Promise<Instrument[]> {
  return (await client.fetchJson<Page<Instrument>>(searchUrl(q, size))).data;
}

/** The instrument with this id (its kind decides its paths), or null. */
export async function resolve(client: Client, id: string): Promise<Instrument | null> {
  try {
    const found = await search(client, id, 1);
    return found.length && found[0].id === id ? found[0] : null;
  } catch (e) {
    // What search refuses (too long, control characters) names no instrument.
    if (e instanceof ApiFailure && e.status === 400) return null;
    throw e;
  }
}
