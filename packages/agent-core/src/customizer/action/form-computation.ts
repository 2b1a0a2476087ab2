import type {
  ActionField,
  ActionFormElement,
  GetFormMetas,
} from '../../toolkit/action/action-form';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { ActionContext } from './action-context';
import type {
  ActionDefinition,
  DynamicField,
  DynamicFormElement,
  DynamicLayoutElement,
} from './action-definition';

type AnyElement = DynamicFormElement<ActionContext>;

const isLayout = (element: AnyElement): element is DynamicLayoutElement<ActionContext> =>
  element.type === 'Layout';

function children(element: DynamicLayoutElement<ActionContext>): AnyElement[] {
  return element.component === 'Row' ? (element.fields ?? []) : (element.elements ?? []);
}

function fieldsOf(elements: AnyElement[]): DynamicField<ActionContext>[] {
  return elements.flatMap((element) =>
    isLayout(element) ? fieldsOf(children(element)) : [element],
  );
}

/** Whether a form has no dynamic part (no function anywhere, no File field with a default). */
export function isStaticForm(form: ActionDefinition['form']): boolean {
  if (!form) return true;
  if (typeof form === 'function') return false;
  const hasFunction = (element: AnyElement): boolean =>
    Object.values(element).some((value) => typeof value === 'function') ||
    (isLayout(element) && children(element).some(hasFunction)) ||
    (element.type === 'File' && element.defaultValue !== undefined);
  return !(form as AnyElement[]).some(hasFunction);
}

async function evaluate(
  value: unknown,
  context: ActionContext,
  searchValue?: string | null,
  isOptions = false,
): Promise<unknown> {
  if (typeof value !== 'function') return value;
  return isOptions ? value(context, searchValue) : value(context);
}

function checkPages(elements: AnyElement[], action: string): void {
  const pages = elements.filter(
    (element) => isLayout(element) && element.component === 'Page',
  ).length;
  if (pages > 0 && pages !== elements.length) {
    throw new ValidationError(
      `You cannot mix pages and other form elements in an action form (action '${action}'): either every top-level element is a Page or none is.`,
    );
  }
}

/**
 * Computes an action form for the current values (data-semantics §3.7): evaluates the form,
 * fills ids and default values, removes elements whose `if` is false, evaluates every dynamic
 * property, and marks fields read by form code with `watchChanges`.
 */
export async function computeForm(
  action: string,
  definition: ActionDefinition,
  context: ActionContext,
  currentValues: Record<string, unknown>,
  metas: GetFormMetas = {},
): Promise<ActionFormElement[]> {
  const source =
    typeof definition.form === 'function'
      ? await definition.form(context)
      : (definition.form ?? []);
  let elements: AnyElement[] = structuredCloneKeepingFunctions(source);
  checkPages(elements, action);

  if (metas.searchField) {
    const wanted = metas.searchField;
    elements = fieldsOf(elements).filter((field) => (field.id ?? field.label) === wanted);
  }

  for (const field of fieldsOf(elements)) {
    field.id = field.id ?? field.label;
    if (!(field.id in currentValues) && field.defaultValue !== undefined) {
      currentValues[field.id] = await evaluate(field.defaultValue, context);
    }
    delete field.defaultValue;
  }

  const visible = async (list: AnyElement[]): Promise<AnyElement[]> => {
    const kept: AnyElement[] = [];
    for (const element of list) {
      const shown =
        metas.includeHiddenFields || !element.if ? true : (await element.if(context)) !== false;
      delete element.if;
      if (!shown) continue;
      if (isLayout(element) && (element.component === 'Row' || element.component === 'Page')) {
        const inner = await visible(children(element));
        if (inner.length === 0) continue;
        if (element.component === 'Row') element.fields = inner as DynamicField<ActionContext>[];
        else element.elements = inner;
      }
      kept.push(element);
    }
    return kept;
  };
  elements = await visible(elements);

  const resolve = async (element: AnyElement): Promise<ActionFormElement> => {
    const resolved: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(element)) {
      if (key === 'fields' || key === 'elements') continue;
      resolved[key] = await evaluate(value, context, metas.searchValue, key === 'options');
    }
    if (isLayout(element)) {
      if (element.component === 'Row')
        resolved.fields = await Promise.all((element.fields ?? []).map(resolve));
      if (element.component === 'Page')
        resolved.elements = await Promise.all((element.elements ?? []).map(resolve));
      return resolved as unknown as ActionFormElement;
    }
    const field = resolved as unknown as ActionField;
    if (field.value === undefined) field.value = currentValues[field.id];
    if (Array.isArray(field.options)) {
      field.options = field.options.map((option) =>
        typeof option === 'object' && option !== null
          ? option
          : { value: option, label: String(option) },
      );
    }
    return field;
  };
  const resolved = await Promise.all(elements.map(resolve));

  const markWatched = (list: ActionFormElement[]) => {
    for (const element of list) {
      if (element.type === 'Layout') {
        if (element.component === 'Row') markWatched(element.fields);
        if (element.component === 'Page') markWatched(element.elements);
      } else {
        element.watchChanges = context.usedFields.has(element.id);
      }
    }
  };
  markWatched(resolved);
  return resolved;
}

/** A deep copy of plain data that keeps functions (forms mix both). */
function structuredCloneKeepingFunctions<T>(value: T): T {
  if (Array.isArray(value)) return value.map(structuredCloneKeepingFunctions) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, structuredCloneKeepingFunctions(v)]),
    ) as T;
  }
  return value;
}
