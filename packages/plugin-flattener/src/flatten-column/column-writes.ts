import {
  type CollectionCustomizer,
  ConditionTreeFactory,
  type HookBeforeCreateContext,
  type HookUpdateContext,
  type RecordData,
  UnprocessableError,
  getPrimaryKeys,
} from '@canopy/agent-core';
import { type JsonObject, deepMerge, isJsonObject, setAtPath, stableKey } from '../json-values';
import type { FlattenedPath } from './flatten-column-options';

/**
 * Takes the flattened keys out of a record or patch and returns them as one nested object
 * (`{ 'address@@@city': 'Lyon' }` → `{ city: 'Lyon' }`), or `null` when there were none.
 */
function extractNested(record: RecordData, paths: readonly FlattenedPath[]): JsonObject | null {
  let nested: JsonObject | null = null;
  for (const { fieldName, path } of paths) {
    if (!Object.hasOwn(record, fieldName)) continue;
    nested ??= {};
    setAtPath(nested, path, record[fieldName]);
    delete record[fieldName];
  }
  return nested;
}

/** Before Create: the flattened keys of each record become the column's nested object. */
function writeOnCreate(columnName: string, paths: readonly FlattenedPath[]) {
  return (context: HookBeforeCreateContext) => {
    for (const record of context.data) {
      const nested = extractNested(record, paths);
      if (nested) record[columnName] = deepMerge(record[columnName], nested);
    }
  };
}

/**
 * Before Update: the flattened keys are deep-merged into each matching record's current value.
 * Records whose merged values are equal share one update: a single group becomes the column's
 * value in the patch; several groups are updated one by one here and the column leaves the patch.
 */
function writeOnUpdate(columnName: string, paths: readonly FlattenedPath[]) {
  return async (context: HookUpdateContext) => {
    const { patch } = context;
    const nested = extractNested(patch, paths);
    if (!nested) return;
    if (isJsonObject(patch[columnName])) {
      patch[columnName] = deepMerge(patch[columnName], nested);
      return;
    }
    const { collection } = context;
    const schema = collection.schema;
    const records = await collection.list(context.filter, [...getPrimaryKeys(schema), columnName]);
    const groups = new Map<string, { value: JsonObject; records: RecordData[] }>();
    for (const record of records) {
      const value = deepMerge(record[columnName], nested);
      const key = stableKey(value);
      const group = groups.get(key) ?? { value, records: [] };
      group.records.push(record);
      groups.set(key, group);
    }
    if (groups.size === 1) {
      patch[columnName] = [...groups.values()][0]?.value;
      return;
    }
    for (const group of groups.values()) {
      await collection.update(
        { conditionTree: ConditionTreeFactory.matchRecords(schema, group.records) },
        { [columnName]: group.value },
      );
    }
  };
}

/**
 * Makes the flattened fields writable: Before-Create and Before-Update hooks turn them into the
 * column's nested value, and each field gets a write handler so the schema marks it writable.
 * The hooks remove the flattened keys before the write layer, so the handler only runs when
 * hooks were bypassed, and then says so.
 */
export function registerColumnWrites(
  collection: CollectionCustomizer,
  columnName: string,
  paths: readonly FlattenedPath[],
): void {
  collection.addHook('Before', 'Create', writeOnCreate(columnName, paths));
  collection.addHook('Before', 'Update', writeOnUpdate(columnName, paths));
  for (const { fieldName } of paths) {
    collection.replaceFieldWriting(fieldName, () => {
      throw new UnprocessableError(
        `Cannot write on computed field '${fieldName}'. Did you inhibit BeforeHooks? ` +
          `'${collection.name}.${fieldName}' is written through the Before hooks of flattenColumn on '${columnName}'.`,
      );
    });
  }
}
