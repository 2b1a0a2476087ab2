/**
 * Inline editing of a table cell: which cells can be edited (the schema's writable columns of a
 * type with a simple editor, when the user may update the collection), the editor each type
 * gets, and the value the agent receives from what was typed.
 */
import { isRelation, typeName, type SchemaCollection, type SchemaField } from '../../../protocol';

export type InlineEditor = 'text' | 'number' | 'boolean' | 'enum' | 'date' | 'dateonly';

/** The editor of a field, or `undefined` when it is not edited in the table. */
export function inlineEditor(
  collection: SchemaCollection,
  field: SchemaField,
  canEdit: boolean,
): InlineEditor | undefined {
  if (!canEdit || collection.isReadOnly || field.isReadOnly || field.isPrimaryKey) return undefined;
  if (isRelation(field) || Array.isArray(field.type)) return undefined;
  switch (typeName(field.type)) {
    case 'String':
    case 'Uuid':
      return 'text';
    case 'Number':
      return 'number';
    case 'Boolean':
      return 'boolean';
    case 'Enum':
      return field.enums?.length ? 'enum' : undefined;
    case 'Date':
      return 'date';
    case 'Dateonly':
      return 'dateonly';
    default:
      return undefined;
  }
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The editor's text for a stored value (a date-time as the user's local `YYYY-MM-DDTHH:mm`). */
export function editText(editor: InlineEditor, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (editor === 'date') {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) return '';
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  }
  if (editor === 'dateonly') return String(value).slice(0, 10);
  return String(value);
}

/**
 * The value sent for the editor's text: `{value}`, or `{problem}` when the text cannot be one
 * (the agent checks the rest, its validation rules included, and says what is wrong).
 */
export function editedValue(
  editor: InlineEditor,
  text: string,
): { value: unknown } | { problem: string } {
  if (editor === 'text') return { value: text };
  if (text.trim() === '') return { value: null };
  if (editor === 'number') {
    const number = Number(text.trim().replace(/\s/g, ''));
    return Number.isFinite(number) ? { value: number } : { problem: 'Enter a number.' };
  }
  if (editor === 'boolean') return { value: text === 'true' };
  if (editor === 'date') {
    const date = new Date(text);
    return Number.isNaN(date.getTime())
      ? { problem: 'Enter a date.' }
      : { value: date.toISOString() };
  }
  return { value: text };
}
