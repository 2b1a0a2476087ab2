import type { ActionFieldType, ActionFieldWidget } from '../../toolkit/action/action-form';
import type { ActionResult } from '../../toolkit/action/action-result';
import type { ActionScope } from '../../toolkit/schema/collection-schema';
import type { ActionContext, ActionContextSingle } from './action-context';
import type { ActionResultBuilder } from './action-result-builder';

/** A property that may be a value, a promise, or a function of the context. */
export type ValueOrHandler<Context, T> = T | Promise<T> | ((context: Context) => T | Promise<T>);

/** A field value: a plain value, a promise, or a function of the context. */
export type FieldValue<Context> =
  | ((context: Context) => unknown)
  | string
  | number
  | boolean
  | null
  | unknown[]
  | Record<string, unknown>
  | Promise<unknown>;

/**
 * A field of an action form (spec §2.5). Almost every property may be a function of the context;
 * `if` hides the field when it returns `false`; `options` of a dynamic dropdown also receives the
 * user's search text.
 *
 * @example
 * { label: 'Amount', type: 'Number', isRequired: true, if: (ctx) => ctx.formValues.kind === 'refund' }
 */
export interface DynamicField<Context = ActionContext> {
  type: ActionFieldType;
  label: string;
  id?: string;
  description?: ValueOrHandler<Context, string>;
  isRequired?: ValueOrHandler<Context, boolean>;
  isReadOnly?: ValueOrHandler<Context, boolean>;
  placeholder?: ValueOrHandler<Context, string>;
  defaultValue?: FieldValue<Context>;
  value?: FieldValue<Context>;
  if?: (context: Context) => boolean | Promise<boolean>;
  enumValues?: ValueOrHandler<Context, string[]>;
  collectionName?: ValueOrHandler<Context, string>;
  widget?: ActionFieldWidget;
  options?:
    | Array<string | number | { value: unknown; label: string }>
    | ((context: Context, searchValue?: string | null) => unknown);
  search?: 'static' | 'disabled' | 'dynamic';
  /** Other widget options (`rows`, `min`, `max`, `step`, `currency`, `extensions`…). */
  [widgetOption: string]: unknown;
}

/** A layout element of an action form. */
export interface DynamicLayoutElement<Context = ActionContext> {
  type: 'Layout';
  component: 'Separator' | 'HtmlBlock' | 'Row' | 'Page';
  content?: ValueOrHandler<Context, string>;
  fields?: DynamicField<Context>[];
  elements?: DynamicFormElement<Context>[];
  nextButtonLabel?: string;
  previousButtonLabel?: string;
  if?: (context: Context) => boolean | Promise<boolean>;
}

/** A form element: a field or a layout element. */
export type DynamicFormElement<Context = ActionContext> =
  DynamicField<Context> | DynamicLayoutElement<Context>;

/**
 * An action (spec §2.4).
 *
 * @example
 * collection.addAction('Mark as paid', {
 *   scope: 'Single',
 *   form: [{ label: 'Note', type: 'String' }],
 *   execute: async (context, resultBuilder) => {
 *     await context.collection.update(context.filter, { status: 'paid' });
 *     return resultBuilder.success('Paid!');
 *   },
 * });
 */
export interface ActionDefinition<Context extends ActionContext = ActionContext> {
  scope: ActionScope;
  execute(
    context: Context,
    resultBuilder: ActionResultBuilder,
  ): Promise<ActionResult | void> | ActionResult | void;
  form?:
    | DynamicFormElement<Context>[]
    | ((
        context: Context,
      ) => DynamicFormElement<Context>[] | Promise<DynamicFormElement<Context>[]>);
  description?: string;
  generateFile?: boolean;
  submitButtonLabel?: string;
}

/** An action acting on exactly one record: its context can read that record. */
export type SingleActionDefinition = ActionDefinition<ActionContextSingle> & { scope: 'Single' };

/** An action definition whose context type follows its scope. */
export type AnyActionDefinition =
  SingleActionDefinition | (ActionDefinition<ActionContext> & { scope: 'Bulk' | 'Global' });
