import type { Knex } from 'knex';
import {
  isStalePreparedStatement,
  type PgSession,
  type PreparedStatements,
} from './prepared-statements';
import type { SqlEnvironment } from './query-context';

/**
 * A SELECT compiled by knex for one query shape: its SQL text (knex's `?` placeholders), the
 * bindings that come before the condition's values (constant for the shape, e.g. a time zone in
 * a date group) and what reads its rows.
 */
export interface CompiledStatement<R = unknown> {
  sql: string;
  prefix: unknown[];
  reader: R;
}

/** The part of knex's query builder its runner uses. */
interface CompiledBuilder {
  toSQL(): { method: string; sql: string; bindings: unknown[]; options: object };
  queryContext(): undefined;
  emit(event: string, ...values: unknown[]): void;
}

interface KnexClient {
  runner(builder: CompiledBuilder): { run(): Promise<unknown> };
}

/**
 * Runs a SELECT compiled earlier by knex with new bindings, through knex's own runner: same
 * pool, `query` events, dialect placeholder conversion, error messages and result shape as
 * awaiting the builder, without building and compiling the query again.
 */
function runCompiledSelect(knex: Knex, sql: string, bindings: unknown[]): Promise<unknown> {
  const builder: CompiledBuilder = {
    // The client rewrites the returned object (placeholders, bindings): a new one every time.
    toSQL: () => ({ method: 'select', sql, bindings, options: {} }),
    queryContext: () => undefined,
    emit: () => undefined,
  };
  return (knex.client as KnexClient).runner(builder).run();
}

interface PositioningClient {
  positionBindings(sql: string): string;
}

/**
 * The SQL with the dialect's own placeholders (`$1`… on PostgreSQL), which knex's runner leaves
 * as they are, so that its placeholder rewriting is done once per shape instead of per query.
 * Kept with `?` when a question mark would remain in the text (knex would rewrite it again).
 */
function nativeSql(knex: Knex, sql: string): string {
  const native = (knex.client as PositioningClient).positionBindings(sql);
  return native !== sql && native.includes('?') ? sql : native;
}

type QueryCallback = (error: Error | null, result: { rows: Record<string, unknown>[] }) => void;

/**
 * pg's `Query` (`Client.Query`; prepared statements run on pg's clients only): a submittable
 * query, which `client.query` takes as it is.
 */
interface PgQueryClass {
  new (text: string, values: unknown[], callback: QueryCallback): { name?: string };
}

interface PgConnection extends PgSession {
  __knexUid?: string;
  __knexTxId?: string;
  query(text: string, values: unknown[] | undefined, callback: QueryCallback): void;
  query(query: { name?: string }): void;
  query(text: string, callback: (error: Error | null) => void): void;
}

interface PgKnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
  emit(event: string, ...values: unknown[]): boolean;
}

/** One round trip of a SELECT, named when `prepared` gives it a name on this connection. */
function queryRows(
  connection: PgConnection,
  sql: string,
  bindings: unknown[],
  prepared: PreparedStatements | undefined,
): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, response: { rows: Record<string, unknown>[] }) =>
      error ? reject(error) : resolve(response.rows);
    if (prepared) {
      // A config object would be copied descriptor by descriptor on every query (pg's
      // normalizeQueryConfig); a query built from the text, then named, is submitted as it is.
      const { Query } = connection.constructor as unknown as { Query: PgQueryClass };
      const query = new Query(sql, bindings, done);
      query.name = prepared.name(connection, sql);
      connection.query(query);
    } else {
      // Text and values as arguments: pg copies a config object, property descriptors and all.
      connection.query(sql, bindings, done);
    }
  });
}

/**
 * A cached SELECT on PostgreSQL, on a connection of knex's pool, without knex's runner (query
 * object rewriting, start/response events, response post-processing): what knex would do for a
 * compiled `$n` statement, with the `query` and `query-error` events knex emits. With `prepared`,
 * the statement is prepared once per connection; one the server refuses as stale (a table was
 * altered since) is prepared again and run once more.
 */
async function runOnPostgres(
  knex: Knex,
  sql: string,
  bindings: unknown[],
  prepared: PreparedStatements | undefined,
): Promise<Record<string, unknown>[]> {
  const client = knex.client as PgKnexClient;
  const connection = await client.acquireConnection();
  const query = {
    __knexUid: connection.__knexUid,
    __knexTxId: connection.__knexTxId,
    method: 'select',
    sql,
    bindings,
    options: {},
  };
  try {
    client.emit('query', query);
    try {
      return await queryRows(connection, sql, bindings, prepared);
    } catch (error) {
      if (!prepared || !isStalePreparedStatement(error)) throw error;
      prepared.forget(connection, sql);
      return await queryRows(connection, sql, bindings, prepared);
    }
  } catch (error) {
    // knex prefixes driver errors with the statement (values stay out of the message here).
    if (error instanceof Error) error.message = `${sql} - ${error.message}`;
    client.emit('query-error', error, query);
    throw error;
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Whether two bindings are the same value (the recorder's and knex's copies of it). */
function sameBinding(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (left instanceof Date && right instanceof Date) return left.getTime() === right.getTime();
  if (Buffer.isBuffer(left) && Buffer.isBuffer(right)) return left.equals(right);
  if (Array.isArray(left) && Array.isArray(right)) {
    return (
      left.length === right.length && left.every((item, index) => sameBinding(item, right[index]))
    );
  }
  return false;
}

/**
 * Runs a SELECT whose shape is `key` with the condition's `values` (then LIMIT/OFFSET, in the
 * order knex binds them): from the environment's statement cache when the shape was compiled
 * before, otherwise built with `build`, compiled, and cached when knex's bindings end with
 * exactly `values` (the check that the recorded values are the ones the SQL expects). Without
 * a key (shape not cacheable) the statement is always built.
 */
export async function runCachedSelect<R>(
  environment: SqlEnvironment,
  key: string | undefined,
  values: unknown[],
  build: () => { query: Knex.QueryBuilder; reader: R },
): Promise<{ rows: Record<string, unknown>[]; reader: R }> {
  const { knex, statements } = environment;
  const cached = key === undefined ? undefined : statements?.get(key);
  if (cached) {
    const bindings = cached.prefix.length > 0 ? [...cached.prefix, ...values] : values;
    const rows =
      environment.dialect === 'postgres' && !cached.sql.includes('?')
        ? await runOnPostgres(knex, cached.sql, bindings, environment.prepared)
        : ((await runCompiledSelect(knex, cached.sql, bindings)) as Record<string, unknown>[]);
    return { rows, reader: cached.reader as R };
  }
  const { query, reader } = build();
  const compiled = query.toSQL() as unknown as { sql: string; bindings: unknown[] };
  const bindings = [...compiled.bindings];
  const start = bindings.length - values.length;
  if (
    key !== undefined &&
    statements &&
    start >= 0 &&
    values.every((value, index) => sameBinding(value, bindings[start + index]))
  ) {
    statements.set(key, {
      sql: nativeSql(knex, compiled.sql),
      prefix: bindings.slice(0, start),
      reader,
    });
  }
  const rows = (await runCompiledSelect(knex, compiled.sql, bindings)) as Record<string, unknown>[];
  return { rows, reader };
}
