/** A successful GET kept to answer the next one when the service says 304 Not Modified. */
export interface CachedResponse {
  etag: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** Where the client keeps validated answers. Implement it to share them (e.g. across tabs or processes). */
export interface EtagCache {
  get(key: string): CachedResponse | undefined | Promise<CachedResponse | undefined>;
  set(key: string, value: CachedResponse): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/** An in-memory cache that forgets the least recently used answers beyond `maxEntries` (default 500). */
export class MemoryEtagCache implements EtagCache {
  readonly #entries = new Map<string, CachedResponse>();
  readonly #maxEntries: number;

  constructor(options: { maxEntries?: number } = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 500);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: CachedResponse): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
