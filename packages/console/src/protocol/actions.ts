/**
 * Actions (agent protocol §9): the forms the agent describes (schema or `hooks/load`), the
 * bodies of the hook and execute calls, the input each field needs, and the results. Pure
 * functions: the React form in `app/features/actions` renders what these decide.
 */
import type { ActionLayoutElement } from '@canopy/platform-protocol';
import type { Selection } from './query';
import { selectionAttributes } from './query';

/** A widget declared on a field (`widgetEdit`). */
export interface ActionWidget {
  name: string;
  parameters?: Record<string, unknown> | null;
}

/** A field of an action form, as the agent sends it (§9.3). */
export interface ActionField {
  field: string;
  label?: string;
  description?: string | null;
  isRequired?: boolean;
  isReadOnly?: boolean;
  value?: unknown;
  /** Schema files carry `defaultValue` instead of `value`. */
  defaultValue?: unknown;
  type: string | string[];
  reference?: string | null;
  enums?: string[] | null;
  hook?: string | null;
  widgetEdit?: ActionWidget | null;
  /** Hook `search` only: what the user typed in this dropdown. */
  searchValue?: string;
}

/** A layout element (§9.3). */
export type LayoutElement = ActionLayoutElement;

export interface ActionForm {
  fields: ActionField[];
  layout: LayoutElement[];
}

/** An action of the schema (`collections[].actions[]`). */
export interface SchemaAction {
  id?: string;
  name: string;
  type?: 'single' | 'bulk' | 'global';
  endpoint: string;
  download?: boolean;
  description?: string | null;
  submitButtonLabel?: string | null;
  fields?: ActionField[];
  layout?: LayoutElement[];
  hooks?: { load?: boolean; change?: unknown[] };
}

/** The records an action runs on (§6.9), with the view they were selected in. */
export type ActionSelection = Selection;

/** The input a field needs: one per protocol type (and the collection record picker). */
export type FieldKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'date'
  | 'dateonly'
  | 'time'
  | 'enum'
  | 'enumList'
  | 'file'
  | 'fileList'
  | 'json'
  | 'collection'
  | 'numberList'
  | 'stringList';

/** The dynamic-form placeholder of the schema (platform protocol §13.5): never shown nor sent. */
export const LOADING_FIELD = 'Loading...';

/** Which input a field takes (§9.3 `type`; `reference` makes it a record picker). */
export function fieldKind(field: ActionField): FieldKind {
  if (field.reference) return 'collection';
  const list = Array.isArray(field.type);
  const type = String(list ? field.type[0] : field.type);
  if (list) {
    if (type === 'Enum') return 'enumList';
    if (type === 'File') return 'fileList';
    if (type === 'Number') return 'numberList';
    return 'stringList';
  }
  switch (type) {
    case 'Number':
      return 'number';
    case 'Boolean':
      return 'boolean';
    case 'Date':
      return 'date';
    case 'Dateonly':
      return 'dateonly';
    case 'Time':
      return 'time';
    case 'Enum':
      return 'enum';
    case 'File':
      return 'file';
    case 'Json':
      return 'json';
    default:
      return 'string';
  }
}

/** `customers.id` → `customers`. */
export function referencedCollection(field: ActionField): string | undefined {
  if (!field.reference) return undefined;
  const dot = field.reference.lastIndexOf('.');
  return dot < 0 ? field.reference : field.reference.slice(0, dot);
}

/** A dropdown option: plain values or `{label, value}` objects. */
export interface Option {
  label: string;
  value: string;
}

/** The options of a widget's `static.options`, as `{label, value}` strings. */
export function widgetOptions(field: ActionField): Option[] {
  const options = (field.widgetEdit?.parameters?.static as { options?: unknown[] } | undefined)
    ?.options;
  if (!Array.isArray(options)) return [];
  return options.map((option) =>
    option !== null && typeof option === 'object' && 'value' in option
      ? {
          label: String(
            (option as { label?: unknown }).label ?? (option as { value: unknown }).value,
          ),
          value: String((option as { value: unknown }).value),
        }
      : { label: String(option), value: String(option) },
  );
}

/** Whether the field is a dropdown searched by the agent (`hooks/search`). */
export function isDynamicSearch(field: ActionField): boolean {
  return (
    field.widgetEdit?.name === 'dropdown' && field.widgetEdit.parameters?.searchType === 'dynamic'
  );
}

/**
 * The form of a schema action: its fields with `defaultValue` as `value`, without the loading
 * placeholder; `undefined` when the form is dynamic and `hooks/load` must be called.
 */
export function staticForm(action: SchemaAction): ActionForm | undefined {
  if (action.hooks?.load) return undefined;
  return {
    fields: (action.fields ?? [])
      .filter((field) => field.field !== LOADING_FIELD)
      .map(({ defaultValue, ...field }) => ({
        ...field,
        value: field.value !== undefined ? field.value : (defaultValue ?? null),
      })),
    layout: action.layout ?? [],
  };
}

/** Whether a value counts as filled in for a required field. */
export function isFilled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'number') return !Number.isNaN(value);
  return true;
}

/** The messages of fields that need a value before the form is sent, by field id. */
export function missingRequired(form: ActionForm): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of form.fields) {
    if (field.isRequired && !field.isReadOnly && !isFilled(field.value)) {
      errors[field.field] = `${field.label ?? field.field} is required.`;
    }
  }
  return errors;
}

/** Replaces one field's value (immutably). */
export function withValue(form: ActionForm, fieldId: string, value: unknown): ActionForm {
  return {
    ...form,
    fields: form.fields.map((field) => (field.field === fieldId ? { ...field, value } : field)),
  };
}

/** The form of a `hooks/load` or `hooks/change` answer (the agent recomputed every value). */
export function mergeForm(answer: ActionForm): ActionForm {
  return {
    fields: answer.fields.filter((field) => field.field !== LOADING_FIELD),
    layout: answer.layout ?? [],
  };
}

/** The `values` of the execute body: field id → wire value (hidden fields are not in the form). */
export function formValues(form: ActionForm): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of form.fields) {
    if (field.field === LOADING_FIELD) continue;
    values[field.field] = field.value === undefined ? null : field.value;
  }
  return values;
}

/** The body of `hooks/load` (§9.3). */
export function loadBody(collection: string, selection: ActionSelection, timezone: string) {
  return {
    data: {
      type: 'action-requests',
      attributes: { ...selectionAttributes(collection, selection, timezone), values: {} },
    },
  };
}

/** The field list the hooks get back: the current fields with their values. */
function hookFields(form: ActionForm, searched?: { field: string; text: string }) {
  return form.fields.map((field) =>
    searched && field.field === searched.field ? { ...field, searchValue: searched.text } : field,
  );
}

/** The body of `hooks/change` after `changedField` changed (§9.4). */
export function changeBody(
  collection: string,
  selection: ActionSelection,
  timezone: string,
  form: ActionForm,
  changedField: string,
) {
  return {
    data: {
      type: 'custom-action-hook-requests',
      attributes: {
        ...selectionAttributes(collection, selection, timezone),
        changed_field: changedField,
        fields: hookFields(form),
      },
    },
  };
}

/** The body of `hooks/search` for a dynamic dropdown (§9.5). */
export function searchBody(
  collection: string,
  selection: ActionSelection,
  timezone: string,
  form: ActionForm,
  field: string,
  text: string,
) {
  return {
    data: {
      type: 'custom-action-hook-requests',
      attributes: {
        ...selectionAttributes(collection, selection, timezone),
        search_field: field,
        fields: hookFields(form, { field, text }),
      },
    },
  };
}

/** The attributes of the execute body (§9.2), without the approval. */
export function executeAttributes(
  collection: string,
  action: SchemaAction,
  selection: ActionSelection,
  timezone: string,
  form: ActionForm,
): Record<string, unknown> {
  return {
    ...selectionAttributes(collection, selection, timezone),
    values: formValues(form),
    smart_action_id: action.id ?? null,
  };
}

/** The result of an execute call (§9.6), or the approval the agent asks for (§9.7). */
export type ActionResult =
  | { kind: 'success'; message: string; html?: string; refresh: string[] }
  | { kind: 'error'; message: string; html?: string }
  | {
      kind: 'webhook';
      url: string;
      method: string;
      headers: Record<string, string>;
      body: unknown;
    }
  | { kind: 'redirect'; to: string }
  | { kind: 'file'; blob: Blob; filename: string }
  | { kind: 'approval'; roleIdsAllowedToApprove: number[]; message: string };

/** `attachment; filename="invoice-7.txt"` → `invoice-7.txt` (RFC 6266, with `filename*`). */
export function attachmentName(header: string | null): string {
  if (!header) return 'file';
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // Fall through to the plain name.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;]+)/.exec(header);
  return bare ? bare[1]!.trim() : 'file';
}

/** Reads the answer of an execute call into an {@link ActionResult}. */
export async function readActionResult(response: Response): Promise<ActionResult> {
  const type = response.headers.get('content-type') ?? '';
  const disposition = response.headers.get('content-disposition');
  if (response.ok && (disposition?.includes('attachment') || !type.includes('json'))) {
    return { kind: 'file', blob: await response.blob(), filename: attachmentName(disposition) };
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {
      kind: 'error',
      message: text || `The agent answered ${response.status} ${response.statusText}.`,
    };
  }
  const errors = body.errors as { name?: string; detail?: string; data?: unknown }[] | undefined;
  const first = errors?.[0];
  if (first?.name === 'CustomActionRequiresApprovalError') {
    const data = (first.data ?? {}) as { roleIdsAllowedToApprove?: unknown };
    return {
      kind: 'approval',
      message: first.detail ?? 'This action requires to be approved.',
      roleIdsAllowedToApprove: Array.isArray(data.roleIdsAllowedToApprove)
        ? data.roleIdsAllowedToApprove.map(Number)
        : [],
    };
  }
  if (first) {
    return {
      kind: 'error',
      message: first.detail ?? `The agent answered ${response.status}.`,
    };
  }
  if (typeof body.error === 'string' || !response.ok) {
    return {
      kind: 'error',
      message:
        typeof body.error === 'string' ? body.error : `The agent answered ${response.status}.`,
      ...(typeof body.html === 'string' ? { html: body.html } : {}),
    };
  }
  if (body.webhook && typeof body.webhook === 'object') {
    const webhook = body.webhook as Record<string, unknown>;
    return {
      kind: 'webhook',
      url: String(webhook.url ?? ''),
      method: String(webhook.method ?? 'POST'),
      headers: (webhook.headers ?? {}) as Record<string, string>,
      body: webhook.body,
    };
  }
  if (typeof body.redirectTo === 'string') return { kind: 'redirect', to: body.redirectTo };
  const refresh = (body.refresh as { relationships?: unknown } | undefined)?.relationships;
  return {
    kind: 'success',
    message: typeof body.success === 'string' ? body.success : '',
    ...(typeof body.html === 'string' ? { html: body.html } : {}),
    refresh: Array.isArray(refresh) ? refresh.map(String) : [],
  };
}

/**
 * Where a redirect goes: a path of this console (`/Shop/Production/…`) stays in the app; an
 * http(s) URL opens outside. Anything else (`javascript:`…) is refused.
 */
export function redirectTarget(
  to: string,
): { internal: string } | { external: string } | undefined {
  if (to.startsWith('/') && !to.startsWith('//')) return { internal: to };
  try {
    const url = new URL(to);
    if (url.protocol === 'http:' || url.protocol === 'https:') return { external: url.toString() };
  } catch {
    // Not a URL.
  }
  return undefined;
}

/** Reads a browser `File` as the data URI the agent decodes (`data:<mime>;name=<name>;base64,…`). */
export function fileDataUri(name: string, mime: string, base64: string): string {
  return `data:${mime || 'application/octet-stream'};name=${encodeURIComponent(name)};base64,${base64}`;
}

/**
 * The currency a `price editor` (CurrencyInput) shows its amount in, and whether the value the
 * agent reads is in cents (`base: Cents`, §9.3 widgets): undefined for any other field, or for
 * a price editor without a currency (then a plain number).
 */
export function fieldCurrency(
  field: Pick<ActionField, 'widgetEdit'>,
): { currency: string; cents: boolean } | undefined {
  if (field.widgetEdit?.name !== 'price editor') return undefined;
  const parameters = (field.widgetEdit.parameters ?? {}) as Record<string, unknown>;
  const currency = parameters.currency;
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)) return undefined;
  return { currency: currency.toUpperCase(), cents: /^cents?$/i.test(String(parameters.base)) };
}

/** The name and type of a data URI value (for showing an uploaded file). */
export function dataUriInfo(value: unknown): { name: string; mime: string } | undefined {
  if (typeof value !== 'string' || !value.startsWith('data:')) return undefined;
  const header = value.slice(5, value.indexOf(','));
  const [mime = '', ...parameters] = header.split(';');
  const name = parameters.find((part) => part.startsWith('name='))?.slice(5);
  return { mime, name: name ? decodeURIComponent(name) : 'file' };
}

/**
 * Which fields the user sees, in order, per page: the layout when the agent gave one (pages,
 * rows, separators, HTML blocks), else one input per field. Fields the layout names but the
 * form no longer holds (hidden by `if`) are dropped.
 */
export function formPages(form: ActionForm): LayoutElement[][] {
  const present = new Set(form.fields.map((field) => field.field));
  const keep = (elements: LayoutElement[]): LayoutElement[] =>
    elements.flatMap((element): LayoutElement[] => {
      if (element.component === 'input') return present.has(element.fieldId) ? [element] : [];
      if (element.component === 'row') {
        const fields = element.fields.filter((input) => present.has(input.fieldId));
        return fields.length ? [{ ...element, fields }] : [];
      }
      if (element.component === 'page') return [{ ...element, elements: keep(element.elements) }];
      return [element];
    });
  const layout = keep(form.layout ?? []);
  if (layout.length === 0) {
    return [form.fields.map((field) => ({ component: 'input', fieldId: field.field }))];
  }
  if (layout.every((element) => element.component === 'page')) {
    return layout.map((page) => (page as { elements: LayoutElement[] }).elements);
  }
  return [layout];
}
