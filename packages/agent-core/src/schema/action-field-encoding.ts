import type { ActionField, ActionFieldOption } from '../toolkit/action/action-form';
import type { DataSource } from '../toolkit/interfaces/data-source';
import { getPrimaryKeys } from '../toolkit/schema/schema-utils';
import { encodeColumnType } from './column-type-encoding';
import type { SchemaActionField, SchemaFieldType } from './schema-json';

/**
 * Encodes a computed action-form field as the schema file and the `hooks/load` answer describe it
 * (protocol §13.5): type encoding (`XList` → `["X"]`, `Collection` → the target's key type with a
 * `reference`), change hook, enums, widget and the current value as `defaultValue`.
 */
export function encodeActionField(field: ActionField, dataSource: DataSource): SchemaActionField {
  const encoded: SchemaActionField = {
    field: field.id,
    label: field.label,
    ...(field.description === undefined ? {} : { description: field.description }),
    isRequired: field.isRequired === true,
    isReadOnly: field.isReadOnly === true,
    type: 'String',
  };
  let value = field.value;
  if (field.type === 'Collection' && field.collectionName) {
    const target = dataSource.getCollection(field.collectionName);
    const [primaryKey] = getPrimaryKeys(target.schema);
    const keyField = primaryKey === undefined ? undefined : target.schema.fields[primaryKey];
    encoded.type = keyField?.type === 'Column' ? encodeColumnType(keyField.columnType) : 'String';
    encoded.reference = `${field.collectionName}.${primaryKey ?? 'id'}`;
    if (Array.isArray(value)) value = value.join('|');
  } else {
    encoded.type = encodeType(field.type);
  }
  if (field.watchChanges) encoded.hook = 'changeHook';
  if (field.type === 'Enum' || field.type === 'EnumList')
    encoded.enums = [...(field.enumValues ?? [])];
  const widget = field.type === 'Enum' || field.type === 'Collection' ? null : widgetEdit(field);
  if (widget) encoded.widgetEdit = widget;
  if (value !== undefined) encoded.defaultValue = value;
  return encoded;
}

function encodeType(type: ActionField['type']): SchemaFieldType {
  return type.endsWith('List') ? [type.slice(0, -'List'.length)] : type;
}

function options(field: ActionField): unknown[] {
  return (field.options ?? []).map((option: ActionFieldOption | unknown) =>
    typeof option === 'object' && option !== null && 'label' in option
      ? { label: (option as ActionFieldOption).label, value: (option as ActionFieldOption).value }
      : option,
  );
}

function widgetEdit(field: ActionField): SchemaActionField['widgetEdit'] | null {
  const placeholder = field.placeholder ?? null;
  switch (field.widget) {
    case undefined:
      return null;
    case 'Dropdown':
      return {
        name: 'dropdown',
        parameters: {
          placeholder,
          isSearchable: field.search === 'static' || field.search === 'dynamic',
          searchType: field.search === 'dynamic' ? 'dynamic' : null,
          static: { options: options(field) },
        },
      };
    case 'RadioGroup':
      return { name: 'radio button', parameters: { static: { options: options(field) } } };
    case 'CheckboxGroup':
      return { name: 'checkboxes', parameters: { static: { options: options(field) } } };
    case 'Checkbox':
      return { name: 'boolean editor', parameters: {} };
    case 'TextInput':
      return { name: 'text editor', parameters: { placeholder } };
    case 'TextArea':
      return { name: 'text area editor', parameters: { placeholder, rows: field.rows ?? null } };
    case 'RichText':
      return { name: 'rich text', parameters: { placeholder } };
    case 'DatePicker':
      return {
        name: 'date editor',
        parameters: {
          format: field.format ?? null,
          placeholder,
          minDate: isoOrNull(field.min),
          maxDate: isoOrNull(field.max),
        },
      };
    case 'TimePicker':
      return { name: 'time editor', parameters: {} };
    case 'TextInputList':
      return {
        name: 'input array',
        parameters: {
          placeholder,
          allowDuplicate: false,
          allowEmptyValue: false,
          enableReorder: true,
        },
      };
    case 'NumberInput':
      return { name: 'number input', parameters: { placeholder, ...bounds(field) } };
    case 'NumberInputList':
      return {
        name: 'input array',
        parameters: { placeholder, allowDuplicate: false, enableReorder: true, ...bounds(field) },
      };
    case 'CurrencyInput':
      return {
        name: 'price editor',
        parameters: {
          placeholder,
          ...bounds(field),
          currency: field.currency ? field.currency.toUpperCase() : null,
          base: field.base === 'Cent' ? 'Cents' : 'Unit',
        },
      };
    case 'ColorPicker':
      return {
        name: 'color editor',
        parameters: {
          placeholder,
          enableOpacity: field.enableOpacity ?? false,
          quickPalette: field.quickPalette ?? null,
        },
      };
    case 'UserDropdown':
      return { name: 'assignee editor', parameters: { placeholder } };
    case 'JsonEditor':
      return { name: 'json code editor', parameters: {} };
    case 'FilePicker':
      return {
        name: 'file picker',
        parameters: {
          prefix: null,
          filesExtensions: field.extensions ?? null,
          filesSizeLimit: field.maxSizeMb ?? null,
          filesCountLimit: field.maxCount ?? null,
        },
      };
    case 'AddressAutocomplete':
      return { name: 'address editor', parameters: { placeholder } };
  }
}

function bounds(field: ActionField) {
  return { min: field.min ?? null, max: field.max ?? null, step: field.step ?? null };
}

function isoOrNull(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : null;
}
