/** Types of action form fields. */
export const ACTION_FIELD_TYPES = [
  'Boolean',
  'Collection',
  'Date',
  'Dateonly',
  'Enum',
  'EnumList',
  'File',
  'FileList',
  'Json',
  'Number',
  'NumberList',
  'String',
  'StringList',
  'Time',
] as const;

/** One of {@link ACTION_FIELD_TYPES}. */
export type ActionFieldType = (typeof ACTION_FIELD_TYPES)[number];

/** Widgets an action form field may use. */
export type ActionFieldWidget =
  | 'Dropdown'
  | 'RadioGroup'
  | 'CheckboxGroup'
  | 'Checkbox'
  | 'TextInput'
  | 'TextInputList'
  | 'TextArea'
  | 'RichText'
  | 'NumberInput'
  | 'NumberInputList'
  | 'CurrencyInput'
  | 'ColorPicker'
  | 'DatePicker'
  | 'TimePicker'
  | 'FilePicker'
  | 'JsonEditor'
  | 'AddressAutocomplete'
  | 'UserDropdown';

/** An option of a Dropdown, RadioGroup or CheckboxGroup. */
export interface ActionFieldOption {
  value: unknown;
  label: string;
}

/**
 * A form field as computed by `getForm`: every dynamic property already evaluated, `value` set
 * to the current value, `watchChanges` true when the form code reads this field.
 */
export interface ActionField {
  type: ActionFieldType;
  id: string;
  label: string;
  description?: string;
  isRequired?: boolean;
  isReadOnly?: boolean;
  value?: unknown;
  watchChanges?: boolean;
  enumValues?: string[];
  collectionName?: string;
  widget?: ActionFieldWidget;
  placeholder?: string;
  options?: ActionFieldOption[];
  search?: 'static' | 'disabled' | 'dynamic';
  rows?: number;
  min?: number | string;
  max?: number | string;
  step?: number;
  currency?: string;
  base?: 'Unit' | 'Cent';
  enableOpacity?: boolean;
  quickPalette?: string[];
  format?: string;
  extensions?: string[];
  maxSizeMb?: number;
  maxCount?: number;
}

/** A layout element of a computed form. */
export type ActionLayoutElement =
  | { type: 'Layout'; component: 'Separator' }
  | { type: 'Layout'; component: 'HtmlBlock'; content: string }
  | { type: 'Layout'; component: 'Row'; fields: ActionField[] }
  | {
      type: 'Layout';
      component: 'Page';
      elements: ActionFormElement[];
      nextButtonLabel?: string;
      previousButtonLabel?: string;
    };

/** A computed form element: a field or a layout element. */
export type ActionFormElement = ActionField | ActionLayoutElement;

/** Details of a form (re)computation: which field changed, which dropdown is being searched. */
export interface GetFormMetas {
  changedField?: string | null;
  searchField?: string | null;
  searchValue?: string | null;
  includeHiddenFields?: boolean;
}
