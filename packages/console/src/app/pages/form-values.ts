/**
 * The values a record form starts from: a record's (edit), the schema's defaults (create), or a
 * copy of a record (duplicate: a create form without the primary key and the fields the agent
 * computes or does not let anyone write).
 */
import { isRelation, isToOne, type AgentRecord, type SchemaCollection } from '../../protocol';

export type FormValues = Record<string, unknown>;

export function initialValues(
  collection: SchemaCollection,
  record: AgentRecord | null | undefined,
): FormValues {
  const values: FormValues = {};
  for (const field of collection.fields) {
    if (isRelation(field) && !isToOne(field)) continue;
    if (record)
      values[field.field] = isToOne(field)
        ? (record.toOne[field.field]?.id ?? null)
        : record.values[field.field];
    else if (field.defaultValue !== undefined && field.defaultValue !== null)
      values[field.field] = field.defaultValue;
  }
  return values;
}

/** A copy of `record` for a create form: no primary key, no read-only field. */
export function duplicateValues(collection: SchemaCollection, record: AgentRecord): FormValues {
  const values = initialValues(collection, record);
  for (const field of collection.fields) {
    if (field.isPrimaryKey || (field.isReadOnly && !isToOne(field))) delete values[field.field];
  }
  return values;
}
