import { randomUUID } from 'node:crypto';

import type { Knex } from 'knex';

import type { Caller, CallerTransaction } from '../toolkit/caller';
import type { Collection } from '../toolkit/interfaces/collection';
import type { DataSource } from '../toolkit/interfaces/data-source';
import type { Logger } from '../toolkit/interfaces/logger';
import { Projection } from '../toolkit/query/projection';
import type { RecordData } from '../toolkit/record/record-utils';
import { ValidationError } from '../toolkit/errors/canopy-error';
import { schemaVersionOf } from '../customizer/decorators/collection-decorator';
import { type AuditOperation, type AuditRow, AuditTable } from './audit-store';
import type { ResolvedAuditTrailOptions } from './audit-trail-options';
import { REDACTED, snapshot, toJsonValue } from './audit-values';
import { baseCollection } from '../customizer/decorators/audit/audit-layers';

/** The rows of one request (or one action run) not yet written, and where they will go. */
export interface AuditUnit {
  readonly correlationId: string;
  /** The request's correlation kind (`revert`…), or `null`. */
  readonly correlationKind: string | null;
  /** The knex the unit's transaction is on; `null` when the data source has none. */
  readonly driver: Knex | null;
  readonly rows: AuditRow[];
}

/** The transaction a unit puts on the caller: the data source's hook plus the unit. */
interface AuditTransaction extends CallerTransaction {
  readonly audit: AuditUnit;
}

function unitOf(caller: Caller): AuditUnit | undefined {
  return (caller.transaction as Partial<AuditTransaction> | undefined)?.audit;
}

/** Whether a native driver is a knex instance (the SQL data source's). */
export function isKnex(driver: unknown): driver is Knex {
  return (
    typeof driver === 'function' &&
    typeof (driver as Partial<Knex>).transaction === 'function' &&
    typeof (driver as Partial<Knex>).schema === 'object' &&
    typeof (driver as Partial<Knex>).client === 'object'
  );
}

/**
 * Records the history rows: groups the writes of a request in units (one correlation id, one
 * transaction on the record's SQL database), and writes the rows in that transaction (or, with a
 * `connectionString`, in the history database before the data transaction commits).
 */
export class AuditRecorder {
  readonly table: AuditTable;
  private readonly redacted: Set<string>;
  private readonly projections = new WeakMap<Collection, { version: number; value: Projection }>();

  private constructor(
    readonly options: ResolvedAuditTrailOptions,
    /** The published data source (top of the stack): names and fields users see. */
    readonly published: DataSource,
    /** The history database when `connectionString` is set. */
    private readonly external: Knex | null,
    private readonly logger: Logger,
  ) {
    this.table = new AuditTable(options.schema, options.table);
    this.redacted = new Set(options.redact);
  }

  /**
   * Opens the history database when configured, checks that every collection of `layer` has
   * somewhere to write, and creates the history tables when missing.
   *
   * @throws Error naming the collections that are on no SQL data source, when there is no
   *   `connectionString`.
   */
  static async open(
    options: ResolvedAuditTrailOptions,
    layer: DataSource,
    published: DataSource,
    logger: Logger,
  ): Promise<AuditRecorder> {
    let external: Knex | null = null;
    if (options.connectionString) {
      const { default: knex } = await import('knex');
      const mysql = /^(mysql|mariadb):/.test(options.connectionString);
      external = knex({
        client: mysql ? 'mysql2' : 'pg',
        connection: mysql
          ? options.connectionString.replace(/^mariadb:/, 'mysql:')
          : options.connectionString,
        pool: { min: 0, max: 4 },
      });
    }
    const recorder = new AuditRecorder(options, published, external, logger);
    try {
      if (external) {
        await recorder.table.ensure(external);
      } else {
        const orphans = layer.collections
          .filter((collection) => !isKnex(collection.nativeDriver))
          .map((collection) => collection.name);
        if (orphans.length > 0) {
          throw new Error(
            `auditTrail: the collections ${orphans.map((name) => `'${name}'`).join(', ')} are not on a SQL data source; ` +
              'give auditTrail.connectionString to store their history.',
          );
        }
        const drivers = new Set(
          layer.collections.map((collection) => collection.nativeDriver as Knex),
        );
        for (const driver of drivers) await recorder.table.ensure(driver);
      }
    } catch (error) {
      await external?.destroy();
      throw error;
    }
    return recorder;
  }

  /** Closes the history database connection (when it has its own). */
  async close(): Promise<void> {
    await this.external?.destroy();
  }

  /** Where the history of a collection is: the history database, else the collection's own. */
  databaseOf(collection: Collection): Knex | null {
    if (this.external) return this.external;
    const driver = collection.nativeDriver;
    return isKnex(driver) ? driver : null;
  }

  /** Every database holding history rows. */
  databases(layer: DataSource): Knex[] {
    if (this.external) return [this.external];
    return [
      ...new Set(layer.collections.map((collection) => collection.nativeDriver).filter(isKnex)),
    ];
  }

  /**
   * Runs a write (or an action) inside a unit: the caller's own when it is on the same database,
   * else a new one — in a transaction of the collection's SQL database when it has one, with the
   * rows written before it commits. A failure anywhere rolls back the change and its rows.
   */
  async run<T>(
    collection: Collection,
    caller: Caller,
    work: (caller: Caller, unit: AuditUnit) => Promise<T>,
  ): Promise<T> {
    const existing = unitOf(caller);
    const native = collection.nativeDriver;
    const driver = isKnex(native) ? native : null;
    if (existing && existing.driver === driver) return work(caller, existing);
    const correlationId = existing?.correlationId ?? caller.requestId ?? randomUUID();
    const correlationKind = existing?.correlationKind ?? caller.correlationKind ?? null;
    let committing = false;
    const execute = async (handle: Knex | null): Promise<T> => {
      const unit: AuditUnit = { correlationId, correlationKind, driver, rows: [] };
      const transaction: AuditTransaction = { driver, handle, audit: unit };
      const result = await work({ ...caller, transaction }, unit);
      const target = this.external ?? handle;
      if (!target)
        throw new Error(`auditTrail: no database for the history of '${collection.name}'.`);
      await this.table.insert(target, unit.rows);
      committing = true;
      return result;
    };
    if (!driver) return execute(null);
    try {
      return await driver.transaction((handle) => execute(handle));
    } catch (error) {
      throw committing ? commitError(error) : error;
    }
  }

  /** Records that an action threw (its run was rolled back); a failure to record is logged. */
  async recordFailure(
    collection: Collection,
    caller: Caller,
    actionName: string,
    ids: readonly (string | null)[],
    formValues: RecordData = {},
  ): Promise<void> {
    try {
      await this.run(collection, { ...caller, transaction: undefined }, async (inner, unit) => {
        const form = this.actionForm(collection, formValues);
        for (const id of ids) {
          unit.rows.push(
            this.row(inner, unit, collection, 'action_failed', id, form, {}, actionName),
          );
        }
      });
    } catch (error) {
      this.logger('Warn', `auditTrail: could not record the failure of '${actionName}'.`, error);
    }
  }

  /** One history row of a unit; values reduced to the stored fields, redacted ones masked. */
  row(
    caller: Caller,
    unit: AuditUnit,
    collection: Collection,
    operation: AuditOperation,
    recordId: string | null,
    before: RecordData | null,
    after: RecordData | null,
    actionName: string | null = null,
  ): AuditRow {
    const fields = this.storedProjection(collection);
    const isRedacted = (field: string) => this.isRedacted(collection, field);
    const action = operation === 'action' || operation === 'action_failed';
    return {
      correlationId: unit.correlationId,
      correlationKind: unit.correlationKind,
      occurredAt: new Date(),
      callerId: Number.isFinite(caller.id) ? caller.id : null,
      callerEmail: caller.email ?? null,
      callerFirstName: caller.firstName ?? null,
      callerLastName: caller.lastName ?? null,
      renderingId: caller.renderingId ?? null,
      collection: collection.name,
      recordId,
      operation,
      actionName,
      // An action row's values are its form and result summary (already masked), not columns.
      before: before && !action ? snapshot(before, fields, isRedacted) : before,
      after: after && !action ? snapshot(after, fields, isRedacted) : after,
      changedFields:
        before && after && !action
          ? fields.filter(
              (field) =>
                JSON.stringify(toJsonValue(before[field])) !==
                JSON.stringify(toJsonValue(after[field])),
            )
          : null,
    };
  }

  /** Whether a field's values are masked (`field` or `collection.field`, stored or shown name). */
  private isRedacted(collection: Collection, field: string): boolean {
    const shown = this.exposedName(collection.name, field);
    return [field, shown].some(
      (name) => this.redacted.has(name) || this.redacted.has(`${collection.name}.${name}`),
    );
  }

  /** An action row's "before": the submitted form, JSON-safe, redacted fields masked. */
  actionForm(collection: Collection, formValues: RecordData): RecordData {
    return Object.fromEntries(
      Object.entries(formValues ?? {}).map(([field, value]) => [
        field,
        this.isRedacted(collection, field) ? REDACTED : toJsonValue(value),
      ]),
    );
  }

  /** The stored columns of a collection (those of its data source, not computed ones). */
  storedProjection(collection: Collection): Projection {
    const version = schemaVersionOf(collection);
    const known = this.projections.get(collection);
    if (known?.version === version) return known.value;
    const base = baseCollection(collection).schema.fields;
    const value = new Projection(
      ...Object.entries(collection.schema.fields)
        .filter(([name, field]) => field.type === 'Column' && base[name]?.type === 'Column')
        .map(([name]) => name),
    );
    this.projections.set(collection, { version, value });
    return value;
  }

  /** The name users see for a field (after `renameField`). */
  exposedName(collectionName: string, field: string): string {
    const top = this.published.collections.find((candidate) => candidate.name === collectionName);
    const rename = top as unknown as { fromChild?: (name: string) => string } | undefined;
    return typeof rename?.fromChild === 'function' ? rename.fromChild(field) : field;
  }
}

/**
 * A commit the database refused: a deferred constraint (checked at commit, after the change and
 * its history rows were written) is the caller's bad input, reported like the data source reports
 * an immediate one — a validation error naming the constraint, never its values. Anything else
 * stays as it is.
 */
export function commitError(error: unknown): unknown {
  const driverError = error as { code?: unknown; constraint?: unknown } | null;
  // SQLSTATE class 23: integrity constraint violation (PostgreSQL's deferred constraints).
  if (typeof driverError?.code !== 'string' || !/^23[0-9A-Z]{3}$/.test(driverError.code)) {
    return error;
  }
  const about =
    typeof driverError.constraint === 'string' && driverError.constraint
      ? `constraint "${driverError.constraint}"`
      : 'a deferred constraint';
  return new ValidationError(`The database refused to commit the change: it violates ${about}.`, {
    cause: error,
    code: 'COMMIT_CONSTRAINT_VIOLATION',
  });
}
