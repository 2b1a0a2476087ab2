import type { Knex } from 'knex';

import type { RecordData } from '../toolkit/record/record-utils';

/** What a history row records. */
export type AuditOperation = 'create' | 'update' | 'delete' | 'action';

/** One history row, as written. */
export interface AuditRow {
  correlationId: string;
  occurredAt: Date;
  callerId: number | null;
  callerEmail: string | null;
  renderingId: number | null;
  collection: string;
  /** Packed record id (`"12"`, composite keys pipe-joined); `null` for a global action. */
  recordId: string | null;
  operation: AuditOperation;
  actionName: string | null;
  before: RecordData | null;
  after: RecordData | null;
}

/** One history row, as read back (with its sequence number). */
export interface StoredAuditRow extends AuditRow {
  id: number;
}

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
    const builder = this.schema ? db.schema.withSchema(this.schema) : db.schema;
    if (await builder.hasTable(this.table)) return;
    await (this.schema ? db.schema.withSchema(this.schema) : db.schema).createTable(
      this.table,
      (table) => {
        table.bigIncrements('id').primary();
        table.string('correlation_id', 64).notNullable();
        table.datetime('occurred_at', { precision: 3 }).notNullable();
        table.bigInteger('caller_id').nullable();
        table.string('caller_email', 255).nullable();
        table.bigInteger('rendering_id').nullable();
        table.string('collection_name', 255).notNullable();
        table.string('record_id', 255).nullable();
        table.string('operation', 16).notNullable();
        table.string('action_name', 255).nullable();
        table.text('before_values').nullable();
        table.text('after_values').nullable();
        table.index(['collection_name', 'record_id', 'id'], `${this.table}_record_idx`);
        table.index(['correlation_id'], `${this.table}_correlation_idx`);
      },
    );
  }

  /** Appends rows (in their order). */
  async insert(db: Knex, rows: readonly AuditRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.from(db).insert(
      rows.map((row) => ({
        correlation_id: row.correlationId,
        occurred_at: row.occurredAt,
        caller_id: row.callerId,
        caller_email: row.callerEmail,
        rendering_id: row.renderingId,
        collection_name: row.collection,
        record_id: row.recordId,
        operation: row.operation,
        action_name: row.actionName,
        before_values: row.before === null ? null : JSON.stringify(row.before),
        after_values: row.after === null ? null : JSON.stringify(row.after),
      })),
    );
  }

  /** A record's rows, newest first, one page; and how many there are. */
  async history(
    db: Knex,
    collection: string,
    recordId: string,
    page: { size: number; number: number },
  ): Promise<{ rows: StoredAuditRow[]; total: number }> {
    const where = { collection_name: collection, record_id: recordId };
    const [rows, [count]] = await Promise.all([
      this.from(db)
        .where(where)
        .orderBy('id', 'desc')
        .limit(page.size)
        .offset((page.number - 1) * page.size),
      this.from(db).where(where).count({ total: '*' }),
    ]);
    return {
      rows: (rows as Record<string, unknown>[]).map(toRow),
      total: Number((count as { total?: unknown } | undefined)?.total ?? 0),
    };
  }

  /** The last row of a record that changed its values at or before `time`, if any. */
  async lastChangeAt(
    db: Knex,
    collection: string,
    recordId: string,
    time: Date,
  ): Promise<StoredAuditRow | null> {
    const row = (await this.from(db)
      .where({ collection_name: collection, record_id: recordId })
      .whereIn('operation', ['create', 'update', 'delete'])
      .where('occurred_at', '<=', time)
      .orderBy('id', 'desc')
      .first()) as Record<string, unknown> | undefined;
    return row ? toRow(row) : null;
  }

  /** The rows of one correlation id, in the order they were written. */
  async correlation(db: Knex, correlationId: string): Promise<StoredAuditRow[]> {
    const rows = (await this.from(db)
      .where({ correlation_id: correlationId })
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
    occurredAt: new Date(row.occurred_at as string | Date),
    callerId: nullableNumber(row.caller_id),
    callerEmail: (row.caller_email as string | null) ?? null,
    renderingId: nullableNumber(row.rendering_id),
    collection: String(row.collection_name),
    recordId: (row.record_id as string | null) ?? null,
    operation: row.operation as AuditOperation,
    actionName: (row.action_name as string | null) ?? null,
    before: parse(row.before_values),
    after: parse(row.after_values),
  };
}
