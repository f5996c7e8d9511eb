/** A bounded map whose entries expire: least recently used entries go first when it is full. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key); // re-insert: most recently used last
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries)
      this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops the entries whose value `test` picks (a change purges what read it). */
  deleteWhere(test: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (test(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
