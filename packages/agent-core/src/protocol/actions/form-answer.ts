import type { ActionField, ActionFormElement } from '../../toolkit/action/action-form';
import type { Collection } from '../../toolkit/interfaces/collection';
import { encodeDataUri, isFormFile } from '../../operations/actions/data-uri';
import { encodeForm } from '../../schema/action-schema-generator';

function encodeFieldValue(field: ActionField): unknown {
  const { value } = field;
  if (field.type === 'File' && isFormFile(value)) return encodeDataUri(value);
  if (field.type === 'FileList' && Array.isArray(value)) {
    return value.map((item) => (isFormFile(item) ? encodeDataUri(item) : item));
  }
  if (field.type === 'Enum')
    return (field.enumValues ?? []).includes(value as string) ? value : null;
  if (field.type === 'EnumList' && Array.isArray(value)) {
    return value.filter((item) => (field.enumValues ?? []).includes(item as string));
  }
  return value;
}

/** A loaded form in its wire form (§9.3): the schema's field encoding, each with its `value`. */
export interface FormAnswer {
  fields: Record<string, unknown>[];
  layout: unknown[];
}

/** The `{fields, layout}` answer of the form hooks (§9.3): schema encoding with `value`. */
export function encodeFormAnswer(
  collection: Collection,
  elements: readonly ActionFormElement[],
): FormAnswer {
  const withWireValues = mapFields(elements, (field) => ({
    ...field,
    value: encodeFieldValue(field),
  }));
  const encoded = encodeForm(withWireValues, collection);
  const fields = encoded.fields.map((field) => {
    const { defaultValue, ...rest } = field as typeof field & { defaultValue?: unknown };
    return defaultValue === undefined ? rest : { ...rest, value: defaultValue };
  });
  return { fields, layout: encoded.layout ?? [] };
}

function mapFields(
  elements: readonly ActionFormElement[],
  handler: (field: ActionField) => ActionField,
): ActionFormElement[] {
  return elements.map((element) => {
    if (!('component' in element && element.type === 'Layout'))
      return handler(element as ActionField);
    if (element.component === 'Row') return { ...element, fields: element.fields.map(handler) };
    if (element.component === 'Page')
      return { ...element, elements: mapFields(element.elements, handler) };
    return element;
  });
}
