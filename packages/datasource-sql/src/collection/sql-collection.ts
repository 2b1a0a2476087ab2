import {
  BaseCollection,
  UnprocessableError,
  ValidationError,
  validateConditionTreeOnce,
  validateSortOnce,
  type AggregateResult,
  type Aggregation,
  type Caller,
  type ConditionTree,
  type DataSource,
  type Filter,
  type PaginatedFilter,
  type Projection,
  type RecordData,
} from '@canopy/agent-core/toolkit';
import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import { toWriteError } from '../errors/database-errors';
import { aggregateRecords } from '../query/aggregate-query';
import { isValidZone } from '../query/date-bounds';
import { filterCondition } from '../query/filter-condition';
import { listRecords } from '../query/list-query';
import { restrictToFilter } from '../query/matching-rows';
import { tableName, type SqlEnvironment } from '../query/query-context';
import type { TranslationOptions } from '../query/translate-condition';
import type { TableModel } from '../schema/table-model';
import { fromDatabase } from '../values/from-database';
import { applyLiveQuerySegment } from './live-query-segment';
import { toWriteValues } from './write-values';

/**
 * A table or view as a collection: every operation is one SQL statement built with knex
 * (joins for to-one relation paths, filters, sorts, pages, aggregations translated natively).
 */
export class SqlCollection extends BaseCollection {
  constructor(
    dataSource: DataSource,
    private readonly environment: SqlEnvironment,
    private readonly model: TableModel,
  ) {
    super(model.name, dataSource, environment.knex);
    this.addFields(model.fields);
    this.enableCount();
    // `searchable` stays false: the customizer's search layer then turns the full search language
    // (field:value, OR, dates…) into a condition tree that runs here natively. A search that
    // reaches this collection directly still works (see searchCondition).
  }

  /** The knex instance of the data source (also exposed as `nativeDriver`). */
  get knex(): Knex {
    return this.environment.knex;
  }

  /**
   * The environment of one operation: the data source's own, or — when the caller carries a
   * transaction opened on this data source's knex (`caller.transaction.driver`) — the same with
   * that transaction as `knex` and no statement cache (cached statements run on pooled
   * connections, outside the transaction).
   */
  private env(caller: Caller | undefined): SqlEnvironment {
    const transaction = caller?.transaction;
    if (!transaction || transaction.driver !== this.environment.knex) return this.environment;
    return { ...this.environment, knex: transaction.handle as Knex, statements: undefined };
  }

  /**
   * The filter's condition, search and live-query segment included, checked against the schema
   * before any SQL runs. A tree validated where the request entered (the agent's request parsing
   * or the customizer's validation layer) is trusted as it is; raw trees given to this collection
   * directly are validated here, by the same toolkit validator.
   */
  private async condition(
    filter: Filter | null,
    options: TranslationOptions,
    caller: Caller,
  ): Promise<ConditionTree | null> {
    const resolved = filter?.liveQuerySegment
      ? await applyLiveQuerySegment(filter, this.model, this.dataSource, caller)
      : filter;
    const tree = filterCondition(resolved, this.model, this.environment.models, options.timezone);
    validateConditionTreeOnce(this, tree);
    return tree;
  }

  override async list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const options = this.translation(caller);
    const tree = await this.condition(filter, options, caller);
    validateSortOnce(this, filter.sort);
    return listRecords(this.env(caller), this.model, tree, filter, projection, options);
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    const options = this.translation(caller);
    const tree = await this.condition(filter, options, caller);
    return aggregateRecords(this.env(caller), this.model, tree, aggregation, limit, options);
  }

  override async create(caller: Caller, records: RecordData[]): Promise<RecordData[]> {
    this.assertWritable();
    const rows = records.map((record) =>
      toWriteValues(this.model, record, this.environment.dialect),
    );
    if (rows.length === 0) return [];
    const { knex, dialect } = this.env(caller);
    const table = tableName(this.environment, this.model.name);
    try {
      if (dialect === 'postgres') {
        const inserted = (await knex(table).insert(rows).returning('*')) as RecordData[];
        return inserted.map((row) => this.readRecord(row));
      }
      // One INSERT per record: a multi-row INSERT would turn absent fields into NULL on SQLite
      // (instead of their defaults), and MySQL only reports the first generated id. SQLite and
      // MariaDB return the stored row; MySQL has no RETURNING, so the row is read back by key.
      return await knex.transaction(async (transaction) => {
        const created: RecordData[] = [];
        for (const row of rows) {
          if (dialect === 'sqlite') {
            const [inserted] = (await transaction(table)
              .insert(row)
              .returning('*')) as RecordData[];
            created.push(this.readRecord(inserted ?? row));
          } else if (this.environment.mariadbReturning) {
            const insert = transaction(table).insert(row).toSQL();
            const [inserted] = (await transaction.raw(`${insert.sql} RETURNING *`, [
              ...insert.bindings,
            ])) as [RecordData[]];
            created.push(this.readRecord(inserted[0] ?? row));
          } else {
            created.push(await this.insertMysql(transaction, table, row));
          }
        }
        return created;
      });
    } catch (error) {
      throw toWriteError(error, 'create');
    }
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    this.assertWritable();
    const values = toWriteValues(this.model, patch, this.environment.dialect);
    if (Object.keys(values).length === 0) return;
    const environment = this.env(caller);
    const statement = environment.knex(tableName(environment, this.model.name));
    const options = this.translation(caller);
    const tree = await this.condition(filter, options, caller);
    restrictToFilter(environment, this.model, statement, tree, options);
    try {
      await statement.update(values);
    } catch (error) {
      throw toWriteError(error, 'update');
    }
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    this.assertWritable();
    const environment = this.env(caller);
    const statement = environment.knex(tableName(environment, this.model.name));
    const options = this.translation(caller);
    const tree = await this.condition(filter, options, caller);
    restrictToFilter(environment, this.model, statement, tree, options);
    try {
      await statement.delete();
    } catch (error) {
      throw toWriteError(error, 'delete');
    }
  }

  private async insertMysql(
    transaction: Knex.Transaction,
    table: string,
    row: Record<string, unknown>,
  ): Promise<RecordData> {
    const [insertId] = (await transaction(table).insert(row)) as number[];
    const key: Record<string, unknown> = {};
    for (const column of this.model.primaryKey) {
      const generated = this.model.columns.get(column)?.autoIncrement;
      key[column] = row[column] ?? (generated ? insertId : undefined);
    }
    if (this.model.primaryKey.length === 0 || Object.values(key).includes(undefined)) {
      return this.readRecord(row);
    }
    const stored = (await transaction(table).where(key).first()) as RecordData | undefined;
    return this.readRecord(stored ?? row);
  }

  private readRecord(row: RecordData): RecordData {
    const record: RecordData = {};
    for (const [name, column] of this.model.columns) {
      if (name in row)
        record[name] = fromDatabase(column.type, row[name], this.environment.dialect);
    }
    return record;
  }

  private assertWritable(): void {
    if (this.model.isView) {
      throw new UnprocessableError(`View is read-only: '${this.model.name}' cannot be written.`);
    }
  }

  private translation(caller: Caller): TranslationOptions {
    const zone = caller?.timezone || 'UTC';
    if (!isValidZone(zone)) {
      throw new ValidationError(
        `Invalid time zone '${zone}' for the caller: use an IANA name such as 'Europe/Paris'.`,
      );
    }
    return new QueryTranslation(zone);
  }
}

/**
 * The translation options of one query: the caller's zone, and "now", read when a relative date
 * operator first needs it, then fixed for the query. A class, whose getter is defined once on its
 * prototype: an object literal with a getter defines an accessor on every object it makes.
 */
class QueryTranslation implements TranslationOptions {
  private fixedNow: DateTime | undefined;

  constructor(readonly timezone: string) {}

  get now(): DateTime {
    return (this.fixedNow ??= DateTime.utc());
  }
}
