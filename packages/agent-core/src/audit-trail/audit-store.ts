import type { HistoryOperation } from '@canopy/platform-protocol';
import type { Knex } from 'knex';

import type { RecordData } from '../toolkit/record/record-utils';

/** What a history row records (`action_failed`: an action that threw or answered an error). */
export type AuditOperation = HistoryOperation;

/** One history row, as written. */
export interface AuditRow {
  correlationId: string;
  /** What the correlation was (`revert`…), as the request said (`x-canopy-correlation-kind`). */
  correlationKind: string | null;
  occurredAt: Date;
  callerId: number | null;
  callerEmail: string | null;
  callerFirstName: string | null;
  callerLastName: string | null;
  renderingId: number | null;
  collection: string;
  /** Packed record id (`"12"`, composite keys pipe-joined); `null` for a global action. */
  recordId: string | null;
  operation: AuditOperation;
  actionName: string | null;
  before: RecordData | null;
  after: RecordData | null;
  /** Fields an update changed (redacted ones included, though their values are masked). */
  changedFields: string[] | null;
}

/** One history row, as read back (with its sequence number). */
export interface StoredAuditRow extends AuditRow {
  id: number;
}

/** The rows {@link AuditTable.statesAt} finds for one record (`null`: none such). */
export interface RecordStateRows {
  then: StoredAuditRow | null;
  next: StoredAuditRow | null;
  latest: StoredAuditRow | null;
}

/** Rows a history insert statement carries (14 parameters each). */
const INSERT_CHUNK = 1000;

/**
 * The history table (`canopy_audit_trail` by default) on one database, through knex or a knex
 * transaction: created at start when missing, appended to, and read by record or correlation id.
 */
export class AuditTable {
  constructor(
    readonly schema: string | null,
    readonly table: string,
  ) {}

  private from(db: Knex): Knex.QueryBuilder {
    return this.schema ? db.withSchema(this.schema).table(this.table) : db.table(this.table);
  }

  /** Creates the table and its indexes when missing (and the PostgreSQL schema). */
  async ensure(db: Knex): Promise<void> {
    const postgres = /^(pg|postgres|postgresql)$/.test(String(db.client.config.client));
    if (this.schema && postgres) await db.schema.createSchemaIfNotExists(this.schema);
    // A fresh schema builder per statement: one builder runs every statement queued on it.
    const builder = () => (this.schema ? db.schema.withSchema(this.schema) : db.schema);
    if (await builder().hasTable(this.table)) {
      // A table created before correlation kinds existed gets the column (nullable: old rows).
      if (!(await builder().hasColumn(this.table, 'correlation_kind'))) {
        await builder().alterTable(this.table, (table) => {
          table.string('correlation_kind', 32).nullable();
        });
      }
      return;
    }
    await builder().createTable(this.table, (table) => {
      table.bigIncrements('id').primary();
      table.string('correlation_id', 64).notNullable();
      table.string('correlation_kind', 32).nullable();
      table.datetime('occurred_at', { precision: 3 }).notNullable();
      table.bigInteger('caller_id').nullable();
      table.string('caller_email', 255).nullable();
      table.string('caller_first_name', 255).nullable();
      table.string('caller_last_name', 255).nullable();
      table.bigInteger('rendering_id').nullable();
      table.string('collection_name', 255).notNullable();
      table.string('record_id', 255).nullable();
      table.string('operation', 16).notNullable();
      table.string('action_name', 255).nullable();
      table.text('before_values').nullable();
      table.text('after_values').nullable();
      table.text('changed_fields').nullable();
      table.index(['collection_name', 'record_id', 'id'], `${this.table}_record_idx`);
      table.index(['correlation_id'], `${this.table}_correlation_idx`);
    });
  }

  /**
   * Appends rows (in their order), {@link INSERT_CHUNK} a statement: one statement for the rows of
   * a bulk update of thousands of records would pass PostgreSQL's 65,535 bound parameters.
   */
  async insert(db: Knex, rows: readonly AuditRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await this.insertChunk(db, rows.slice(start, start + INSERT_CHUNK));
    }
  }

  private async insertChunk(db: Knex, rows: readonly AuditRow[]): Promise<void> {
    await this.from(db).insert(
      rows.map((row) => ({
        correlation_id: row.correlationId,
        correlation_kind: row.correlationKind,
        occurred_at: row.occurredAt,
        caller_id: row.callerId,
        caller_email: row.callerEmail,
        caller_first_name: row.callerFirstName,
        caller_last_name: row.callerLastName,
        rendering_id: row.renderingId,
        collection_name: row.collection,
        record_id: row.recordId,
        operation: row.operation,
        action_name: row.actionName,
        before_values: row.before === null ? null : JSON.stringify(row.before),
        after_values: row.after === null ? null : JSON.stringify(row.after),
        changed_fields: row.changedFields === null ? null : JSON.stringify(row.changedFields),
      })),
    );
  }

  /** A record's rows, oldest first (at most `limit`). */
  async history(
    db: Knex,
    collection: string,
    recordId: string,
    limit = 10_000,
  ): Promise<StoredAuditRow[]> {
    const rows = (await this.from(db)
      .where({ collection_name: collection, record_id: recordId })
      .orderBy('id', 'asc')
      .limit(limit)) as Record<string, unknown>[];
    return rows.map(toRow);
  }

  /** The last row of a record that changed its values at or before `time`, if any. */
  lastChangeAt(
    db: Knex,
    collection: string,
    recordId: string,
    time: Date,
  ): Promise<StoredAuditRow | null> {
    return this.nearestChange(db, collection, recordId, time, 'before');
  }

  /** The nearest value-changing row of a record: at or before `time`, or after it. */
  async nearestChange(
    db: Knex,
    collection: string,
    recordId: string,
    time: Date,
    side: 'before' | 'after',
  ): Promise<StoredAuditRow | null> {
    const row = (await this.from(db)
      .where({ collection_name: collection, record_id: recordId })
      .whereIn('operation', ['create', 'update', 'delete'])
      .where('occurred_at', side === 'before' ? '<=' : '>', time)
      .orderBy('id', side === 'before' ? 'desc' : 'asc')
      .first()) as Record<string, unknown> | undefined;
    return row ? toRow(row) : null;
  }

  /**
   * What the history knows of some records of a collection at `time`, in one statement: for each
   * record with rows, its last value-changing row at or before `time` (`then`), its first one
   * after (`next`: its values before it are the values then, when the history begins later) and
   * its last one (`latest`). Records without rows are absent.
   */
  async statesAt(
    db: Knex,
    collection: string,
    recordIds: readonly string[],
    time: Date,
  ): Promise<Map<string, RecordStateRows>> {
    const states = new Map<string, RecordStateRows>();
    if (recordIds.length === 0) return states;
    const table = this.schema ? `${this.schema}.${this.table}` : this.table;
    const summary = db(table)
      .select('record_id')
      .select(
        db.raw('MAX(CASE WHEN ?? <= ? THEN ?? END) AS ??', ['occurred_at', time, 'id', 'then_id']),
        db.raw('MIN(CASE WHEN ?? > ? THEN ?? END) AS ??', ['occurred_at', time, 'id', 'next_id']),
        db.raw('MAX(??) AS ??', ['id', 'latest_id']),
      )
      .where('collection_name', collection)
      .whereIn('record_id', [...recordIds])
      .whereIn('operation', ['create', 'update', 'delete'])
      .groupBy('record_id');
    const rows = (await db
      .select('h.*', 's.then_id', 's.next_id', 's.latest_id')
      .from({ h: table })
      .join(summary.as('s'), (join) => {
        join
          .on('h.id', '=', 's.then_id')
          .orOn('h.id', '=', 's.next_id')
          .orOn('h.id', '=', 's.latest_id');
      })) as Record<string, unknown>[];
    for (const raw of rows) {
      const row = toRow(raw);
      const recordId = row.recordId as string;
      const state = states.get(recordId) ?? { then: null, next: null, latest: null };
      if (nullableNumber(raw.then_id) === row.id) state.then = row;
      if (nullableNumber(raw.next_id) === row.id) state.next = row;
      if (nullableNumber(raw.latest_id) === row.id) state.latest = row;
      states.set(recordId, state);
    }
    return states;
  }

  /** The rows of some correlation ids, in the order they were written. */
  async correlation(db: Knex, correlationIds: readonly string[]): Promise<StoredAuditRow[]> {
    const rows = (await this.from(db)
      .whereIn('correlation_id', [...correlationIds])
      .orderBy('id', 'asc')
      .limit(10_000)) as Record<string, unknown>[];
    return rows.map(toRow);
  }
}

function parse(value: unknown): RecordData | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as RecordData;
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function toRow(row: Record<string, unknown>): StoredAuditRow {
  return {
    id: Number(row.id),
    correlationId: String(row.correlation_id),
    correlationKind: (row.correlation_kind as string | null) ?? null,
    occurredAt: new Date(row.occurred_at as string | Date),
    callerId: nullableNumber(row.caller_id),
    callerEmail: (row.caller_email as string | null) ?? null,
    callerFirstName: (row.caller_first_name as string | null) ?? null,
    callerLastName: (row.caller_last_name as string | null) ?? null,
    renderingId: nullableNumber(row.rendering_id),
    collection: String(row.collection_name),
    recordId: (row.record_id as string | null) ?? null,
    operation: row.operation as AuditOperation,
    actionName: (row.action_name as string | null) ?? null,
    before: parse(row.before_values),
    after: parse(row.after_values),
    changedFields: (parse(row.changed_fields) as unknown as string[] | null) ?? null,
  };
}
