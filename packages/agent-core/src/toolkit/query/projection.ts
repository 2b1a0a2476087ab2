/**
 * A list of field paths to read: plain columns and `relation:field` paths through ManyToOne /
 * OneToOne relations, at any depth.
 *
 * @example
 * const projection = new Projection('id', 'title', 'author:name');
 * projection.columns;   // ['id', 'title']
 * projection.relations; // { author: Projection ['name'] }
 */
export class Projection extends Array<string> {
  // Array methods (map, filter, …) return plain arrays, not projections.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  constructor(...paths: string[]) {
    super();
    this.push(...paths);
  }

  /** Paths without a relation prefix. */
  get columns(): string[] {
    return this.filter((path) => !path.includes(':'));
  }

  /** Sub-projection per first-level relation. */
  get relations(): Record<string, Projection> {
    const relations: Record<string, Projection> = {};
    for (const path of this) {
      const index = path.indexOf(':');
      if (index === -1) continue;
      const relation = path.slice(0, index);
      (relations[relation] ??= new Projection()).push(path.slice(index + 1));
    }
    return relations;
  }

  /** This projection plus the given paths, without duplicates, in first-seen order. */
  union(...others: (readonly string[] | null | undefined)[]): Projection {
    const all = new Set<string>(this);
    for (const other of others) for (const path of other ?? []) all.add(path);
    return new Projection(...all);
  }

  /** Whether both projections contain the same paths (order-insensitive). */
  equals(other: readonly string[]): boolean {
    if (this.length === other.length && this.every((path, index) => path === other[index])) {
      return true;
    }
    const mine = new Set(this);
    const theirs = new Set(other);
    return mine.size === theirs.size && [...mine].every((path) => theirs.has(path));
  }

  /** Replaces each path by one or more paths (deduplicated). */
  replace(handler: (path: string) => string | readonly string[]): Projection {
    // Runs in several layers of every list: one Set, no intermediate arrays.
    const all = new Set<string>();
    for (const path of this) {
      const replaced = handler(path);
      if (typeof replaced === 'string') all.add(replaced);
      else for (const one of replaced) all.add(one);
    }
    return new Projection(...all);
  }

  /** Prefixes every path with `prefix:`. */
  nest(prefix: string | null | undefined): Projection {
    return prefix ? new Projection(...this.map((path) => `${prefix}:${path}`)) : this;
  }

  /** Removes the common relation prefix; every path must go through the same relation. */
  unnest(): Projection {
    const prefix = this[0]?.split(':')[0];
    const ok = prefix !== undefined && this.every((path) => path.startsWith(`${prefix}:`));
    if (!ok) throw new Error('Cannot unnest projection: paths do not share a relation prefix.');
    return new Projection(...this.map((path) => path.slice(prefix.length + 1)));
  }

  /**
   * Re-shapes records to exactly this projection: only projected paths, relations as nested
   * objects, a `null` related object staying `null`.
   */
  apply<T extends Record<string, unknown>>(records: readonly T[]): Record<string, unknown>[] {
    const reproject = this.reprojector();
    return records.map((record) => reproject(record));
  }

  /** A function re-shaping one record, with the projection's structure computed once. */
  private reprojector(): (record: Record<string, unknown>) => Record<string, unknown> {
    const { columns } = this;
    const relations = Object.entries(this.relations).map(
      ([relation, sub]) => [relation, sub.reprojector()] as const,
    );
    return (record) => {
      const result: Record<string, unknown> = {};
      for (const column of columns) if (column in record) result[column] = record[column];
      for (const [relation, reproject] of relations) {
        const value = record[relation];
        if (value === null || value === undefined) {
          if (relation in record) result[relation] = null;
        } else {
          result[relation] = reproject(value as Record<string, unknown>);
        }
      }
      return result;
    };
  }
}
