/**
 * An action form value as text, written as the rest of the Console writes values of its type
 * (`components/format.ts`): amounts of a price editor in their currency, numbers in the user's
 * locale, dates in the user's time zone, files by their name, records by their id. Used where a
 * form's values are shown rather than edited: the approval queue.
 */
import { dataUriInfo, fieldCurrency, type ActionField } from '../../../protocol';
import { formatValue, userContext, type FormatContext } from '../../components/format';

/** What a value's display depends on: the field's type, record reference and widget. */
export type ActionValueField = Pick<ActionField, 'widgetEdit'> & {
  type?: unknown;
  reference?: string | null;
};

function formatScalar(
  type: string,
  field: ActionValueField,
  value: unknown,
  context: FormatContext,
): string {
  const file = dataUriInfo(value);
  if (file) return file.name;
  const empty = value === null || value === undefined || value === '';
  // A record's id, as the queue names its records (`#42`), never a number in the locale.
  if (field.reference) return empty ? '—' : `#${String(value)}`;
  const money = type === 'Number' ? fieldCurrency(field) : undefined;
  const amount = money?.cents && !empty ? Number(value) / 100 : value;
  return formatValue({ type, currency: money?.currency }, amount, context);
}

export function formatActionValue(
  field: ActionValueField,
  value: unknown,
  context: FormatContext = userContext,
): string {
  const list = Array.isArray(field.type);
  const type = String((list ? (field.type as unknown[])[0] : field.type) ?? 'String');
  if (list || Array.isArray(value)) {
    const items = Array.isArray(value)
      ? value
      : value === null || value === undefined
        ? []
        : [value];
    if (items.length === 0) return '—';
    return items.map((item) => formatScalar(type, field, item, context)).join(', ');
  }
  return formatScalar(type, field, value, context);
}
