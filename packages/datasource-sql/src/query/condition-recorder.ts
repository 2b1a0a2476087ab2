import type { Knex } from 'knex';

type Nested = (builder: Knex.QueryBuilder) => void;

/** Which `?`/`??` placeholders of a raw fragment are identifiers, in order (knex's syntax). */
const placeholderKinds = new Map<string, boolean[] | null>();
const PLACEHOLDER = /\\?\?\??/g;

function identifierFlags(sql: string): boolean[] | null {
  let flags = placeholderKinds.get(sql);
  if (flags !== undefined) return flags;
  flags = [];
  for (const [match] of sql.matchAll(PLACEHOLDER)) {
    // `\?` is an escaped question mark, not a placeholder.
    if (match !== '\\?') flags.push(match === '??');
  }
  if (placeholderKinds.size >= 1000) placeholderKinds.clear();
  placeholderKinds.set(sql, flags);
  return flags;
}

function inlined(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (value === null || typeof value !== 'object') return false;
  return 'isRawInstance' in value || typeof (value as { toSQL?: unknown }).toSQL === 'function';
}

/**
 * Stands in for a knex query builder while the condition translators run: instead of building
 * SQL, it records the *shape* of the WHERE clause (every method called, every raw fragment and
 * every identifier, in order), which decides the SQL text, and apart from it the bound values in
 * the order knex binds them. Two conditions with the same shape compile to the same SQL, so a
 * statement compiled once can be run again with the new values only.
 */
export class ConditionRecorder {
  /** The shape: method names, raw SQL fragments and identifiers. */
  readonly shape: string[] = [];
  /** The values bound by the recorded calls, in SQL order. */
  readonly values: unknown[] = [];
  /** False when a call was not understood: the statement must be built by knex. */
  cacheable = true;

  /** The recorder typed as the builder the translators expect. */
  get builder(): Knex.QueryBuilder {
    return this as unknown as Knex.QueryBuilder;
  }

  where(nested: unknown): this {
    return this.group('where', nested);
  }

  orWhere(nested: unknown): this {
    return this.group('orWhere', nested);
  }

  whereRaw(sql: string, bindings?: readonly unknown[]): this {
    return this.raw('whereRaw', sql, bindings);
  }

  orWhereRaw(sql: string, bindings?: readonly unknown[]): this {
    return this.raw('orWhereRaw', sql, bindings);
  }

  whereNull(column: string): this {
    return this.column('whereNull', column);
  }

  whereNotNull(column: string): this {
    return this.column('whereNotNull', column);
  }

  orWhereNull(column: string): this {
    return this.column('orWhereNull', column);
  }

  orWhereNotNull(column: string): this {
    return this.column('orWhereNotNull', column);
  }

  private group(method: string, nested: unknown): this {
    if (typeof nested !== 'function') {
      this.cacheable = false;
      return this;
    }
    this.shape.push(method, '(');
    (nested as Nested).call(this.builder, this.builder);
    this.shape.push(')');
    return this;
  }

  private column(method: string, column: unknown): this {
    if (typeof column !== 'string') this.cacheable = false;
    else this.shape.push(method, column);
    return this;
  }

  private raw(method: string, sql: unknown, bindings: readonly unknown[] | undefined): this {
    const flags = typeof sql === 'string' ? identifierFlags(sql) : null;
    const given = bindings ?? [];
    if (typeof sql !== 'string' || !flags || flags.length !== given.length) {
      this.cacheable = false;
      return this;
    }
    this.shape.push(method, sql);
    flags.forEach((identifier, index) => {
      const value = given[index];
      if (identifier) {
        if (typeof value === 'string') this.shape.push(value);
        else this.cacheable = false;
      } else if (value === undefined || inlined(value)) {
        // knex refuses undefined bindings with its own error (let it say so), and writes raw
        // fragments and sub-queries into the SQL text instead of binding them.
        this.cacheable = false;
      } else {
        this.values.push(value);
      }
    });
    return this;
  }
}
