/**
 * A window over a list: skip `skip` records, then return at most `limit` (`null`: no limit).
 *
 * @example
 * new Page(20, 10).apply(records); // records 21 to 30
 */
export class Page {
  constructor(
    readonly skip = 0,
    readonly limit: number | null = null,
  ) {}

  /** Slices records to this page. */
  apply<T>(records: readonly T[]): T[] {
    return records.slice(this.skip, this.limit === null ? undefined : this.skip + this.limit);
  }
}
