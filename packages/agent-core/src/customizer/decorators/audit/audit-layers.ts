import type { ActionResult } from '../../../toolkit/action/action-result';
import type { Caller } from '../../../toolkit/caller';
import type { Collection } from '../../../toolkit/interfaces/collection';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import type { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import type { CompositeId, RecordData } from '../../../toolkit/record/record-utils';
import { getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import { CollectionDecorator } from '../collection-decorator';
import { DataSourceDecorator } from '../data-source-decorator';
import type { HistoryOperation } from '@canopy/platform-protocol';

/**
 * Where the audit layers hand the writes they see: the agent's recorder (`audit-trail/`), set at
 * start. The layers know only this interface, so the customizer does not depend on the recorder.
 */
export interface AuditRecorderPort {
  /** Runs `work` inside the caller's unit of rows (opened, and committed after, if none). */
  run<T>(
    collection: Collection,
    caller: Caller,
    work: (caller: Caller, unit: { readonly rows: unknown[] }) => Promise<T>,
  ): Promise<T>;
  /** One history row of a record. */
  row(
    caller: Caller,
    unit: { readonly rows: unknown[] },
    collection: Collection,
    operation: HistoryOperation,
    recordId: string | null,
    before: RecordData | null,
    after: RecordData | null,
    actionName?: string | null,
  ): { operation: HistoryOperation; after: RecordData | null };
  /** An action row's "before": the submitted form, redacted fields masked. */
  actionForm(collection: Collection, formValues: RecordData): RecordData;
  /** The fields stored for a record of `collection`. */
  storedProjection(collection: Collection): Projection;
  /** Records that an action failed on `ids`. */
  recordFailure(
    collection: Collection,
    caller: Caller,
    actionName: string,
    ids: readonly (string | null)[],
    formValues?: RecordData,
  ): Promise<void>;
}

/** Keeps only the origin and path of a URL an action answered (no credentials, no token). */
function withoutSecrets(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    // Not a URL `URL` reads (relative, or a bad host): cut the query and any `user:pass@`.
    const base = url.split(/[?#]/)[0] ?? '';
    const scheme = base.indexOf('://');
    const at = base.indexOf('@', scheme + 3);
    const authority = scheme >= 0 ? base.slice(scheme + 3, at) : '';
    return scheme >= 0 && at > scheme && !authority.includes('/')
      ? base.slice(0, scheme + 3) + base.slice(at + 1)
      : base;
  }
}

/**
 * An action row's "after": what the action answered, without its html, headers, body or file
 * contents (agent-http-protocol §13.1).
 */
export function actionSummary(result: ActionResult): RecordData {
  const summary: RecordData = { type: result.type };
  if ('message' in result) summary.message = result.message;
  if ('name' in result) summary.name = result.name;
  if ('mimeType' in result) summary.mimeType = result.mimeType;
  if ('method' in result) summary.method = result.method;
  if ('url' in result) summary.url = withoutSecrets(result.url);
  if ('path' in result) summary.path = withoutSecrets(result.path);
  return summary;
}

/** The parts of a filter, as a paginated filter without sort or page (for reading matches). */
export function asListFilter(filter: Filter | undefined): PaginatedFilter {
  return new PaginatedFilter({
    conditionTree: filter?.conditionTree ?? null,
    search: filter?.search ?? null,
    searchExtended: filter?.searchExtended ?? false,
    segment: filter?.segment ?? null,
    liveQuerySegment: filter?.liveQuerySegment ?? null,
  });
}

/** Packs a record's primary key values as the REST interface does (`"12"`, `"12|EU"`). */
export function packId(keys: readonly string[], record: RecordData): string {
  return keys.map((key) => String(record[key])).join('|');
}

/**
 * The layer that records writes (data-semantics §3.2: between the internal hooks and the
 * actions, so that both the REST interface's writes and those of action code pass through it).
 * Without a recorder (no `auditTrail` option) it forwards everything untouched.
 */
export class AuditWriteCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: AuditDataSourceDecorator;

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const recorder = this.dataSource.recorder;
    if (!recorder) return this.childCollection.create(caller, data);
    return recorder.run(this, caller, async (inner, unit) => {
      const created = await this.childCollection.create(inner, data);
      const keys = getPrimaryKeys(this.schema);
      for (const record of created) {
        unit.rows.push(
          recorder.row(inner, unit, this, 'create', packId(keys, record), null, record),
        );
      }
      return created;
    });
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    const recorder = this.dataSource.recorder;
    if (!recorder) return this.childCollection.update(caller, filter, patch);
    return recorder.run(this, caller, async (inner, unit) => {
      const projection = recorder.storedProjection(this);
      const before = await this.readTarget.list(inner, asListFilter(filter), projection);
      await this.childCollection.update(inner, filter, patch);
      if (before.length === 0) return;
      const keys = getPrimaryKeys(this.schema);
      const ids: CompositeId[] = before.map(
        (record) => keys.map((key) => (key in patch ? patch[key] : record[key])) as CompositeId,
      );
      const after = await this.readTarget.list(
        inner,
        new PaginatedFilter({ conditionTree: ConditionTreeFactory.matchIds(this.schema, ids) }),
        projection,
      );
      const byId = new Map(after.map((record) => [packId(keys, record), record]));
      before.forEach((record, index) => {
        const id = (ids[index] as CompositeId).map(String).join('|');
        unit.rows.push(recorder.row(inner, unit, this, 'update', id, record, byId.get(id) ?? null));
      });
    });
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    const recorder = this.dataSource.recorder;
    if (!recorder) return this.childCollection.delete(caller, filter);
    return recorder.run(this, caller, async (inner, unit) => {
      const projection = recorder.storedProjection(this);
      const before = await this.readTarget.list(inner, asListFilter(filter), projection);
      await this.childCollection.delete(inner, filter);
      const keys = getPrimaryKeys(this.schema);
      for (const record of before) {
        unit.rows.push(
          recorder.row(inner, unit, this, 'delete', packId(keys, record), record, null),
        );
      }
    });
  }
}

/** The data source of {@link AuditWriteCollectionDecorator}; `recorder` is set at start. */
export class AuditDataSourceDecorator extends DataSourceDecorator<AuditWriteCollectionDecorator> {
  recorder: AuditRecorderPort | null = null;

  constructor(child: ConstructorParameters<typeof DataSourceDecorator>[0]) {
    super(child, AuditWriteCollectionDecorator);
  }
}

/**
 * The layer above the actions: an action run is one unit (one correlation id, one transaction
 * on SQL data sources) holding the action's row and the rows of every write its code makes.
 */
export class AuditActionCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: AuditActionDataSourceDecorator;

  override async execute(
    caller: Caller,
    name: string,
    formValues: RecordData,
    filter?: Filter,
  ): Promise<ActionResult> {
    const recorder = this.dataSource.recorder;
    if (!recorder) return this.childCollection.execute(caller, name, formValues, filter);
    let ids: (string | null)[] = [null];
    try {
      return await recorder.run(this, caller, async (inner, unit) => {
        const keys = getPrimaryKeys(this.schema);
        const scope = this.schema.actions[name]?.scope;
        const records =
          scope === 'Global' || keys.length === 0
            ? []
            : await this.readTarget.list(
                inner,
                asListFilter(filter).override({ page: null }),
                new Projection(...keys),
              );
        if (records.length > 0) ids = records.map((record) => packId(keys, record));
        const form = recorder.actionForm(this, formValues);
        const rows = ids.map((id) => recorder.row(inner, unit, this, 'action', id, form, {}, name));
        unit.rows.push(...rows);
        const result = await this.childCollection.execute(inner, name, formValues, filter);
        const summary = actionSummary(result);
        for (const row of rows) {
          row.after = summary;
          if (result.type === 'Error') row.operation = 'action_failed';
        }
        return result;
      });
    } catch (error) {
      // The run was rolled back: its failure is recorded on its own.
      await recorder.recordFailure(this, caller, name, ids, formValues);
      throw error;
    }
  }
}

/** The data source of {@link AuditActionCollectionDecorator}; `recorder` is set at start. */
export class AuditActionDataSourceDecorator extends DataSourceDecorator<AuditActionCollectionDecorator> {
  recorder: AuditRecorderPort | null = null;

  constructor(child: ConstructorParameters<typeof DataSourceDecorator>[0]) {
    super(child, AuditActionCollectionDecorator);
  }
}

/** The collection at the bottom of a decorator chain (the data source's own). */
export function baseCollection(collection: Collection): Collection {
  let current = collection;
  while (current instanceof CollectionDecorator) current = current.childCollection;
  return current;
}
