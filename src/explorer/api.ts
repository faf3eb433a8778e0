/**
 * The explorer's only way to the data: the service's public HTTP API, with the user's key. Every
 * request a view makes is recorded (its URL, status and time) for the requests panel, which shows
 * each as a curl line, so what is drawn can be fetched again from code.
 */

export const KEY_STORAGE = 'mds.explorer.apiKey';
export const API = '/api/v1';

/** A request the early script (early.ts) sent before the main script ran: its key, when it was sent, its answer. */
export interface EarlyRequest {
  key: string;
  at: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    /** The early script's requests by URL, each taken once by the first request of the same URL and key. */
    mdsEarly?: Map<string, EarlyRequest>;
  }
}

/** The headers of every request: JSON, and the key. */
const headersOf = (key: string | null): Record<string, string> =>
  key ? { accept: 'application/json', 'x-api-key': key } : { accept: 'application/json' };

/** Sends a request now, for the main script to take (Client.fetchJson) when it asks for the same URL with the same key. */
export function askEarly(url: string, key: string): void {
  const response = fetch(url, { headers: headersOf(key) });
  // Not taken (another view, another key): its failure is nobody's.
  response.catch(() => {});
  (window.mdsEarly ??= new Map()).set(url, { key, at: performance.now(), response });
}

/** The early request of this URL and key, once. */
function takeEarly(url: string, key: string | null): EarlyRequest | null {
  const early = window.mdsEarly?.get(url);
  if (!early) return null;
  window.mdsEarly!.delete(url);
  return early.key === key ? early : null;
}

/** A record of the API's error response. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

export interface Logged {
  path: string;
  status: number | null;
  ms: number | null;
}

export interface Page<T> {
  data: T[];
  meta: { next_cursor: string | null };
  links: { next: string | null };
}

type Params = Record<string, string | number | undefined>;

/** The path and query of a request, as the API's own links write them (brackets kept). */
export function pathOf(path: string, params: Params = {}): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${API}${path}${q ? `?${q}` : ''}`;
}

export class Client {
  /** The requests of the current view, newest last. */
  log: Logged[] = [];
  onLog: () => void = () => {};
  /** Called on 401: the key is missing or not valid. */
  onUnauthorized: () => void = () => {};
  /** The data version the current view was drawn at (the highest Data-Version of its answers); null before its first. */
  version: number | null = null;
  /** Called when `version` moves. */
  onVersion: () => void = () => {};

  get key(): string | null {
    return localStorage.getItem(KEY_STORAGE);
  }
  set key(k: string | null) {
    if (k === null) localStorage.removeItem(KEY_STORAGE);
    else localStorage.setItem(KEY_STORAGE, k);
  }

  /** Starts a new view: its requests are the panel's. */
  clearLog(): void {
    this.log = [];
    this.version = null;
    this.onLog();
    this.onVersion();
  }

  async get<T>(path: string, params: Params = {}): Promise<T> {
    return this.fetchJson<T>(pathOf(path, params));
  }

  /** A collection's pages from the first, following `links.next`, up to `max` records. */
  async all<T>(path: string, params: Params = {}, max = 5000): Promise<T[]> {
    const out: T[] = [];
    let url: string | null = pathOf(path, { ...params, 'page[size]': params['page[size]'] ?? 1000 });
    while (url !== null && out.length < max) {
      const page: Page<T> = await this.fetchJson<Page<T>>(url);
      out.push(...page.data);
      url = page.links.next;
    }
    return out;
  }

  async fetchJson<T>(url: string): Promise<T> {
    const entry: Logged = { path: url, status: null, ms: null };
    this.log.push(entry);
    this.onLog();
    const early = takeEarly(url, this.key);
    const started = early?.at ?? performance.now();
    let res: Response;
    try {
      res = await (early?.response ?? fetch(url, { headers: headersOf(this.key) }));
    } catch {
      throw new ApiFailure(0, 'network', '连不上服务。The service cannot be reached.');
    } finally {
      entry.ms = Math.round(performance.now() - started);
    }
    entry.status = res.status;
    this.onLog();
    const version = Number(res.headers.get('data-version') ?? NaN);
    if (version > (this.version ?? -1)) {
      this.version = version;
      this.onVersion();
    }
    const body = await res.json().catch(() => null);
    if (!res.ok) {
      const e = body?.errors?.[0];
      if (res.status === 401) this.onUnauthorized();
      throw new ApiFailure(res.status, e?.code ?? 'error', e?.detail ?? `HTTP ${res.status}`);
    }
    return body as T;
  }
}
