/** A page of rows fetched with one extra row to learn whether another page follows. */
export interface PageRequest<K extends unknown[] = unknown[]> {
  /** Sort key of the last row already served, or null for the first page. */
  after: K | null;
  /** Rows wanted: page size + 1. */
  limit: number;
}
