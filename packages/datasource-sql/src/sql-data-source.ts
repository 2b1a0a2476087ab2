import { BaseDataSource, ValidationError, type RecordData } from '@canopy/agent-core';
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
      const result = await this.readOnly((connection) =>
        connection.raw(sql, bindings as Knex.RawBinding[]),
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
   */
  private async readOnly<T>(work: (connection: Knex.Transaction) => Promise<T>): Promise<T> {
    const { knex, dialect } = this.environment;
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

  /** Closes the connection pool; later queries fail. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.environment.knex.destroy();
  }
}
