/**
 * Which column of the CSV goes into which field of the collection. Columns are matched to fields
 * by name or label, ignoring case, spaces and punctuation (`First name`, `first_name` and
 * `FirstName` all name `first_name`; `Customer id` names the relation `customer`), so the
 * headers of the Console's own export are recognised. Read-only fields and to-many relations take
 * no value.
 */
import {
  humanize,
  isRelation,
  isToOne,
  type SchemaCollection,
  type SchemaField,
} from '../../../protocol';

/** For each column of the file (by position): the field it fills, or `null` (ignored). */
export type Mapping = (string | null)[];

function normalize(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** A field takes no value from a file: the agent computes it, or it is the other side's list. */
export function isReadOnlyField(field: SchemaField): boolean {
  return !!field.isReadOnly && !isToOne(field);
}

/** The fields an import can show: columns and to-one relations. */
export function mappableFields(collection: SchemaCollection): SchemaField[] {
  return collection.fields.filter((field) => !isRelation(field) || isToOne(field));
}

/** The fields a column may fill. */
export function writableFields(collection: SchemaCollection): SchemaField[] {
  return mappableFields(collection).filter((field) => !isReadOnlyField(field));
}

/** Whether a record cannot be created without a value of this field. */
export function isRequiredField(field: SchemaField): boolean {
  const required =
    field.isRequired === true || !!field.validations?.some((v) => v.type === 'is present');
  const defaulted = field.defaultValue !== undefined && field.defaultValue !== null;
  return required && !defaulted && !isReadOnlyField(field);
}

function names(field: SchemaField): string[] {
  const base = [field.field, humanize(field.field)];
  return isToOne(field) ? [...base, `${field.field}_id`, `${field.field}Id`] : base;
}

/** The field a column header names, read-only ones included. */
export function fieldNamed(collection: SchemaCollection, header: string): SchemaField | undefined {
  const wanted = normalize(header);
  if (!wanted) return undefined;
  return mappableFields(collection).find((field) =>
    names(field).some((name) => normalize(name) === wanted),
  );
}

/** The first guess: each column to the writable field it names, each field once. */
export function autoMap(headers: readonly string[], collection: SchemaCollection): Mapping {
  const taken = new Set<string>();
  return headers.map((header) => {
    const field = fieldNamed(collection, header);
    if (!field || isReadOnlyField(field) || taken.has(field.field)) return null;
    taken.add(field.field);
    return field.field;
  });
}

/** What stops the mapping from being used, in words (empty when it can be). */
export function mappingProblems(
  mapping: Mapping,
  headers: readonly string[],
  collection: SchemaCollection,
): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  mapping.forEach((name, index) => {
    if (name === null) return;
    const field = collection.fields.find((f) => f.field === name);
    const header = headers[index] ?? `column ${index + 1}`;
    if (!field || (isRelation(field) && !isToOne(field))) {
      problems.push(`“${header}” goes into ${name}, which this collection has no column for.`);
    } else if (isReadOnlyField(field)) {
      problems.push(`${humanize(name)} is read-only: “${header}” cannot fill it.`);
    } else if (seen.has(name)) {
      problems.push(`“${seen.get(name)}” and “${header}” both go into ${humanize(name)}.`);
    }
    seen.set(name, header);
  });
  if (!mapping.some((name) => name !== null)) problems.push('No column goes into a field.');
  for (const field of writableFields(collection)) {
    if (isRequiredField(field) && !seen.has(field.field))
      problems.push(`${humanize(field.field)} is required: choose the column that holds it.`);
  }
  return problems;
}
