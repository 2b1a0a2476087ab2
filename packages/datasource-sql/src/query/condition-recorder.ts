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

/** One recorded builder call: its method and arguments, or the calls of a nested group. */
type Call =
  | { method: string; args: readonly unknown[]; group?: undefined }
  | { method: string; args?: undefined; group: ConditionRecorder };

/**
 * Stands in for a knex query builder while the condition translators run, in one walk of the
 * tree: it records every call (groups as nested recorders) to replay into a real builder when the
 * statement must be built, and apart from them the *shape* of the WHERE clause (every method,
 * every raw fragment and every identifier, in order), which decides the SQL text, and the bound
 * values in the order knex binds them. Two conditions with the same shape compile to the same SQL,
 * so a statement compiled once can be run again with the new values only.
 */
export class ConditionRecorder {
  /** The calls made on this builder, in order. */
  private readonly calls: Call[] = [];

  constructor(
    /** The shape: method names, raw SQL fragments and identifiers (shared with nested groups). */
    readonly shape: string[] = [],
    /** The values bound by the recorded calls, in SQL order (shared with nested groups). */
    readonly values: unknown[] = [],
    private readonly root?: ConditionRecorder,
  ) {}

  private notCacheable = false;

  /** False when a call was not understood: the statement is built, never taken from the cache. */
  get cacheable(): boolean {
    return !(this.root ?? this).notCacheable;
  }

  /** The recorder typed as the builder the translators expect. */
  get builder(): Knex.QueryBuilder {
    return this as unknown as Knex.QueryBuilder;
  }

  /** Makes the recorded calls on a real knex builder (the same calls the translators made). */
  replay(builder: Knex.QueryBuilder): Knex.QueryBuilder {
    for (const call of this.calls) {
      const method = (builder as unknown as Record<string, (...args: unknown[]) => unknown>)[
        call.method
      ] as (...args: unknown[]) => unknown;
      if (call.group) {
        const group = call.group;
        method.call(builder, (inner: Knex.QueryBuilder) => void group.replay(inner));
      } else {
        method.apply(builder, call.args as unknown[]);
      }
    }
    return builder;
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

  private uncacheable(): void {
    (this.root ?? this).notCacheable = true;
  }

  private group(method: string, nested: unknown): this {
    if (typeof nested !== 'function') {
      // Not a callback: replayed as given, for knex to interpret or refuse.
      this.uncacheable();
      this.calls.push({ method, args: [nested] });
      return this;
    }
    const group = new ConditionRecorder(this.shape, this.values, this.root ?? this);
    this.calls.push({ method, group });
    this.shape.push(method, '(');
    (nested as Nested).call(group.builder, group.builder);
    this.shape.push(')');
    return this;
  }

  private column(method: string, column: unknown): this {
    this.calls.push({ method, args: [column] });
    if (typeof column !== 'string') this.uncacheable();
    else this.shape.push(method, column);
    return this;
  }

  private raw(method: string, sql: unknown, bindings: readonly unknown[] | undefined): this {
    this.calls.push({ method, args: bindings === undefined ? [sql] : [sql, bindings] });
    const flags = typeof sql === 'string' ? identifierFlags(sql) : null;
    const given = bindings ?? [];
    if (typeof sql !== 'string' || !flags || flags.length !== given.length) {
      this.uncacheable();
      return this;
    }
    this.shape.push(method, sql);
    flags.forEach((identifier, index) => {
      const value = given[index];
      if (identifier) {
        if (typeof value === 'string') this.shape.push(value);
        else this.uncacheable();
      } else if (value === undefined || inlined(value)) {
        // knex refuses undefined bindings with its own error (let it say so), and writes raw
        // fragments and sub-queries into the SQL text instead of binding them.
        this.uncacheable();
      } else {
        this.values.push(value);
      }
    });
    return this;
  }
}
