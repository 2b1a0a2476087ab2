/**
 * How the history shows fields and values: the field's label (as the record page names it) and
 * its value formatted like the record page, falling back to plain text for fields the schema no
 * longer has.
 */
import { type AgentSchema, findField, formatHistoryValue, humanize } from '../../../protocol';
import { collectionOf } from '../../data';
import { formatFieldValue } from '../../components/format';

/** The label of a field (its humanized name; the column name stays in the title). */
export function fieldLabel(field: string): string {
  return humanize(field);
}

/** A stored value as the record page would show it. */
export function valueText(
  schema: AgentSchema | undefined,
  collectionName: string,
  field: string,
  value: unknown,
): string {
  const collection = collectionOf(schema, collectionName);
  const definition = collection && findField(collection, field);
  return definition && value !== undefined && value !== null
    ? formatFieldValue(definition, value)
    : formatHistoryValue(value);
}

/** A record named for people: its collection's label and id. */
export function recordLabel(collectionName: string, recordId: string | null): string {
  const singular = humanize(collectionName).replace(/s$/, '');
  return recordId === null ? humanize(collectionName) : `${singular} #${recordId}`;
}
