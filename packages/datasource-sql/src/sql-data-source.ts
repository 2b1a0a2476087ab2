import {
  BaseDataSource,
  ValidationError,
  type Caller,
  type RecordData,
} from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import { SqlCollection } from './collection/sql-collection';
import { SqlDataSourceError } from './errors/sql-data-source-error';
import type { SqlIntrospection } from './introspection/introspection';
import { bindNamedParameters } from './native-query/bind-named-parameters';
import { nativeRows } from './native-query/native-rows';
import type { SqlEnvironment } from './query/query-context';

/**
 * The data source built by {@link createSqlDataSource}: one {@link SqlCollection} per table and
 * view, native queries on the registered connection name, and `close()` for the pool.
 */
export class SqlDataSource extends BaseDataSource<SqlCollection> {
  private closed = false;

  constructor(
    private readonly environment: SqlEnvironment,
    /** The introspection in use; serialize it to skip introspection on the next start. */
    readonly introspection: SqlIntrospection,
    liveQueryConnections?: string,
  ) {
    super();
    for (const model of environment.models.values()) {
      this.addCollection(new SqlCollection(this, environment, model));
    }
    if (liveQueryConnections) this.addNativeQueryConnection(liveQueryConnections, environment.knex);
  }

  /** The knex instance (pool) of the data source. */
  get knex(): Knex {
    return this.environment.knex;
  }

  /**
   * The statement cache of lists and aggregations: compiled shapes kept, most kept, and lookups
   * that found a compiled statement or not (see `statementCacheSize`).
   */
  get statementCache(): { size: number; capacity: number; hits: number; misses: number } {
    const cache = this.environment.statements;
    return {
      size: cache?.size ?? 0,
      capacity: cache?.capacity ?? 0,
      hits: cache?.hits ?? 0,
      misses: cache?.misses ?? 0,
    };
  }

  override async executeNativeQuery(
    connectionName: string,
    // Optional only because BaseDataSource declares a one-argument signature.
    query?: string,
    contextVariables: Record<string, unknown> = {},
    caller?: Caller,
  ): Promise<RecordData[]> {
    if (!(connectionName in this.nativeQueryConnections)) {
      throw new SqlDataSourceError(
        'UNKNOWN_NATIVE_CONNECTION',
        `Unknown connection name '${connectionName}'. Known: [${Object.keys(this.nativeQueryConnections).join(', ')}] (set liveQueryConnections).`,
      );
    }
    if (typeof query !== 'string' || query.trim() === '') {
      throw new ValidationError('A native query needs its SQL text.');
    }
    const { sql, bindings } = bindNamedParameters(query, contextVariables);
    try {
      const result = await this.readOnly(
        (connection) => connection.raw(sql, bindings as Knex.RawBinding[]),
        caller,
      );
      return nativeRows(result, this.environment.dialect);
    } catch (error) {
      const message = String((error as Error).message ?? error).split('\n')[0];
      throw new ValidationError(`The native query failed: ${message}`, { cause: error });
    }
  }

  /**
   * Runs `work` in a read-only transaction: native queries feed charts and segments, they must
   * not change data (PostgreSQL and MySQL/MariaDB `READ ONLY` transactions, SQLite `query_only`).
   * When the caller is inside a transaction of this data source (a write's audit unit, whose
   * segment is a live query), the query runs on that transaction: asking the pool for another
   * connection would wait forever on a pool of one (the embedded PostgreSQL, SQLite).
   */
  private async readOnly<T>(
    work: (connection: Knex.Transaction) => Promise<T>,
    caller?: Caller,
  ): Promise<T> {
    const { knex, dialect } = this.environment;
    const transaction = caller?.transaction;
    if (
      transaction?.driver === knex &&
      transaction.handle &&
      ['postgres', 'sqlite'].includes(dialect)
    ) {
      return this.readOnlyWithin(transaction.handle as Knex.Transaction, work);
    }
    if (dialect !== 'sqlite') return knex.transaction(work, { readOnly: true });
    return knex.transaction(async (transaction) => {
      await transaction.raw('PRAGMA query_only = ON');
      try {
        return await work(transaction);
      } finally {
        await transaction.raw('PRAGMA query_only = OFF');
      }
    });
  }

  /**
   * Runs `work` read-only inside an open transaction: on PostgreSQL in a savepoint made read-only
   * and rolled back afterwards (going read-only is allowed mid-transaction; rolling the savepoint
   * back restores read-write), on SQLite with `query_only` for the time of the work. MySQL and
   * MariaDB cannot turn a running transaction read-only: their queries keep their own connection.
   */
  private async readOnlyWithin<T>(
    transaction: Knex.Transaction,
    work: (connection: Knex.Transaction) => Promise<T>,
  ): Promise<T> {
    if (this.environment.dialect === 'sqlite') {
      await transaction.raw('PRAGMA query_only = ON');
      try {
        return await work(transaction);
      } finally {
        await transaction.raw('PRAGMA query_only = OFF');
      }
    }
    await transaction.raw('SAVEPOINT canopy_native_query');
    try {
      await transaction.raw('SET LOCAL transaction_read_only = on');
      return await work(transaction);
    } finally {
      await transaction.raw('ROLLBACK TO SAVEPOINT canopy_native_query');
      await transaction.raw('RELEASE SAVEPOINT canopy_native_query');
    }
  }

  /** Closes the connection pool; later queries fail. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.environment.knex.destroy();
  }
}
