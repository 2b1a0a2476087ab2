/** One sort clause: a field path and a direction. */
export interface SortClause {
  field: string;
  ascending: boolean;
}

/**
 * An ordered list of sort clauses; fields may be relation paths.
 *
 * @example
 * new Sort({ field: 'createdAt', ascending: false }, { field: 'id', ascending: true });
 */
export class Sort extends Array<SortClause> {
  // Array methods (map, filter, …) return plain arrays, not sorts.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  constructor(...clauses: SortClause[]) {
    super();
    this.push(...clauses.map((clause) => ({ field: clause.field, ascending: clause.ascending })));
  }

  /** The field paths used by the sort. */
  get projection(): string[] {
    return this.map((clause) => clause.field);
  }

  /** Replaces each clause by zero or more clauses. */
  replaceClauses(handler: (clause: SortClause) => SortClause | readonly SortClause[]): Sort {
    const clauses: SortClause[] = [];
    for (const clause of this) {
      const replaced = handler(clause);
      if (Array.isArray(replaced)) clauses.push(...(replaced as readonly SortClause[]));
      else clauses.push(replaced as SortClause);
    }
    return new Sort(...clauses);
  }

  /** Prefixes every field with `prefix:`. */
  nest(prefix: string | null | undefined): Sort {
    return prefix
      ? this.replaceClauses((clause) => ({ ...clause, field: `${prefix}:${clause.field}` }))
      : this;
  }

  /** Removes the common relation prefix; every clause must go through the same relation. */
  unnest(): Sort {
    const prefix = this[0]?.field.split(':')[0];
    if (prefix === undefined || !this.every((c) => c.field.startsWith(`${prefix}:`))) {
      throw new Error('Cannot unnest sort: clauses do not share a relation prefix.');
    }
    return this.replaceClauses((c) => ({ ...c, field: c.field.slice(prefix.length + 1) }));
  }

  /** The same clauses with every direction flipped. */
  inverse(): Sort {
    return this.replaceClauses((clause) => ({ ...clause, ascending: !clause.ascending }));
  }
}
