import type { ActionField, ActionFormElement } from '../../toolkit/action/action-form';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { RecordData } from '../../toolkit/record/record-utils';
import { unpackRecordId } from '../records/record-id';
import { decodeDataUri } from './data-uri';

/** Placeholder field of dynamic forms in the schema, never a real value (§9.2 step 5). */
const LOADING_FIELD = 'Loading...';

/** Every field of a computed form, layout elements walked. */
export function flattenFields(elements: readonly ActionFormElement[]): ActionField[] {
  const fields: ActionField[] = [];
  const walk = (element: ActionFormElement) => {
    if ('component' in element && element.type === 'Layout') {
      if (element.component === 'Row') element.fields.forEach(walk);
      if (element.component === 'Page') element.elements.forEach(walk);
      return;
    }
    fields.push(element as ActionField);
  };
  elements.forEach(walk);
  return fields;
}

/** Converts one wire value to what form code expects, given the field's form type. */
function decodeValue(
  collection: Collection,
  field: ActionField | undefined,
  value: unknown,
): unknown {
  if (value === null || value === undefined || !field) return value;
  switch (field.type) {
    case 'Collection': {
      if (!field.collectionName || (typeof value !== 'string' && typeof value !== 'number'))
        return value;
      return unpackRecordId(collection.dataSource.getCollection(field.collectionName), value);
    }
    case 'File':
      return typeof value === 'string' ? decodeDataUri(value) : value;
    case 'FileList':
      return Array.isArray(value)
        ? value.map((item) => (typeof item === 'string' ? decodeDataUri(item) : item))
        : value;
    default:
      return value;
  }
}

/**
 * Whether decoding `values` needs the form: only strings, numbers and arrays have a wire form
 * that depends on their field's type (packed ids, data URIs); anything else is kept as sent.
 */
export function needsFormToDecode(values: Record<string, unknown>): boolean {
  for (const [key, value] of Object.entries(values)) {
    if (key === LOADING_FIELD) continue;
    if (typeof value === 'string' || typeof value === 'number' || Array.isArray(value)) return true;
  }
  return false;
}

/** Decodes the `values` of an execute body (keys are field ids) against the form's fields. */
export function decodeValues(
  collection: Collection,
  form: readonly ActionFormElement[],
  values: Record<string, unknown>,
): RecordData {
  const byId = new Map(flattenFields(form).map((field) => [field.id, field]));
  const decoded: RecordData = {};
  for (const [key, value] of Object.entries(values)) {
    if (key === LOADING_FIELD) continue;
    decoded[key] = decodeValue(collection, byId.get(key), value);
  }
  return decoded;
}

/** A field object of a hook body (`fields` of change/search requests). */
export interface WireField {
  field: string;
  value?: unknown;
  type?: unknown;
  reference?: unknown;
  searchValue?: unknown;
}

/** Decodes the `fields` list of a change/search body (§9.4) into form values. */
export function decodeWireFields(collection: Collection, fields: readonly WireField[]): RecordData {
  const values: RecordData = {};
  for (const field of fields) {
    if (typeof field?.field !== 'string' || field.field === LOADING_FIELD) continue;
    let value = field.value;
    if (typeof field.reference === 'string' && value !== null && value !== undefined) {
      const [target] = field.reference.split('.');
      const targetCollection = collection.dataSource.collections.find((c) => c.name === target);
      if (targetCollection && (typeof value === 'string' || typeof value === 'number')) {
        value = unpackRecordId(targetCollection, value);
      }
    } else if (field.type === 'File' && typeof value === 'string') {
      value = decodeDataUri(value);
    } else if (Array.isArray(field.type) && field.type[0] === 'File' && Array.isArray(value)) {
      value = value.map((item) => (typeof item === 'string' ? decodeDataUri(item) : item));
    }
    values[field.field] = value;
  }
  return values;
}
