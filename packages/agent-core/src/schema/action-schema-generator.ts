import { compareNames } from '../toolkit/compare-names';
import type { ActionField, ActionFormElement } from '../toolkit/action/action-form';
import type { Caller } from '../toolkit/caller';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Collection } from '../toolkit/interfaces/collection';
import type { ActionSchema } from '../toolkit/schema/collection-schema';
import { encodeActionField } from './action-field-encoding';
import type { SchemaAction, SchemaActionField, SchemaLayoutElement } from './schema-json';

/** Where action routes live and how they are named. */
export interface ActionRouteOptions {
  /** Route prefix of the agent (default `/forest`); action endpoints start with it. */
  prefix: string;
  useUnsafeActionEndpoint: boolean;
}

/**
 * The identity used to compute static forms while generating the schema: static forms evaluate
 * no code, so no real user is involved.
 */
export const SCHEMA_GENERATION_CALLER: Caller = Object.freeze({
  id: 0,
  email: '',
  firstName: 'Schema',
  lastName: 'Generator',
  team: '',
  role: '',
  tags: {},
  timezone: 'UTC',
});

const MAX_SUBMIT_LABEL = 50;

/** `"Refund order!"` → `refund-order-` (protocol §13.5). */
export function actionSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
}

/** The route of an action, relative to the agent's origin. */
export function actionEndpoint(
  collection: string,
  index: number,
  name: string,
  options: ActionRouteOptions,
): string {
  const position = options.useUnsafeActionEndpoint ? '' : `${index}/`;
  return `${options.prefix}/_actions/${collection}/${position}${actionSlug(name)}`;
}

/**
 * The schema's id of an action (`orders-0-refund-order`, or `orders-refund-order` with the unsafe
 * endpoint): what the platform signs as `smart_action_id` in an approval.
 */
export function actionId(
  collection: string,
  index: number,
  name: string,
  options: Pick<ActionRouteOptions, 'useUnsafeActionEndpoint'>,
): string {
  const slug = actionSlug(name);
  return options.useUnsafeActionEndpoint
    ? `${collection}-${slug}`
    : `${collection}-${index}-${slug}`;
}

/**
 * The schema-file actions of a collection (protocol §13.5), sorted by name; the index in ids and
 * endpoints is the position in definition order. Static forms are computed once and published;
 * dynamic ones get the "Loading..." placeholder and are loaded on demand (`hooks.load`).
 *
 * @throws ValidationError when a submit label is longer than 50 characters, or when
 * `useUnsafeActionEndpoint` is on and two actions of the collection share a slug.
 */
export async function generateActions(
  collection: Collection,
  options: ActionRouteOptions,
): Promise<SchemaAction[]> {
  const entries = Object.entries(collection.schema.actions);
  if (options.useUnsafeActionEndpoint) assertUniqueActionSlugs(collection);
  const actions = await Promise.all(
    entries.map(([name, schema], index) =>
      generateAction(collection, name, schema, index, options),
    ),
  );
  return actions.sort((a, b) => compareNames(a.name, b.name));
}

async function generateAction(
  collection: Collection,
  name: string,
  schema: ActionSchema,
  index: number,
  options: ActionRouteOptions,
): Promise<SchemaAction> {
  if (
    schema.submitButtonLabel !== undefined &&
    schema.submitButtonLabel.length > MAX_SUBMIT_LABEL
  ) {
    throw new ValidationError(
      `The submit button label of action '${name}' on '${collection.name}' has ` +
        `${schema.submitButtonLabel.length} characters; at most ${MAX_SUBMIT_LABEL} are allowed.`,
      { code: 'SUBMIT_BUTTON_LABEL_TOO_LONG' },
    );
  }
  const form = schema.staticForm ? await staticForm(collection, name) : null;
  const action: SchemaAction = {
    id: actionId(collection.name, index, name, options),
    name,
    type: schema.scope === 'Single' ? 'single' : schema.scope === 'Bulk' ? 'bulk' : 'global',
    baseUrl: null,
    endpoint: actionEndpoint(collection.name, index, name, options),
    httpMethod: 'POST',
    redirect: null,
    download: schema.generateFile,
    fields: form?.fields ?? [LOADING_FIELD],
    ...(form?.layout ? { layout: form.layout } : {}),
    ...(schema.description === undefined ? {} : { description: schema.description }),
    ...(schema.submitButtonLabel === undefined
      ? {}
      : { submitButtonLabel: schema.submitButtonLabel }),
    hooks: { load: form === null, change: ['changeHook'] },
  };
  return action;
}

const LOADING_FIELD: SchemaActionField = {
  field: 'Loading...',
  label: 'Loading...',
  description: '',
  isRequired: false,
  isReadOnly: true,
  type: 'String',
  defaultValue: 'Form is loading',
  enums: null,
  hook: null,
  reference: null,
  widgetEdit: null,
};

/** Encodes a computed form: its fields, and its layout when it uses layout elements. */
export function encodeForm(
  elements: ActionFormElement[],
  collection: Collection,
): { fields: SchemaActionField[]; layout?: SchemaLayoutElement[] } {
  const fields: SchemaActionField[] = [];
  let usesLayout = false;
  const walk = (element: ActionFormElement): SchemaLayoutElement => {
    if (!('component' in element) || element.type !== 'Layout') {
      const field = element as ActionField;
      fields.push(encodeActionField(field, collection.dataSource));
      return { component: 'input', fieldId: field.id };
    }
    usesLayout = true;
    switch (element.component) {
      case 'Separator':
        return { component: 'separator' };
      case 'HtmlBlock':
        return { component: 'htmlBlock', content: element.content };
      case 'Row':
        return {
          component: 'row',
          fields: element.fields.map(
            (field) => walk(field) as { component: 'input'; fieldId: string },
          ),
        };
      case 'Page':
        return {
          component: 'page',
          ...(element.nextButtonLabel === undefined
            ? {}
            : { nextButtonLabel: element.nextButtonLabel }),
          ...(element.previousButtonLabel === undefined
            ? {}
            : { previousButtonLabel: element.previousButtonLabel }),
          elements: element.elements.map(walk),
        };
    }
  };
  const layout = elements.map(walk);
  return usesLayout ? { fields, layout } : { fields };
}

async function staticForm(collection: Collection, name: string) {
  const elements = await collection.getForm(SCHEMA_GENERATION_CALLER, name);
  return encodeForm(elements, collection);
}

/**
 * Checks that no two actions of the collection share a route slug (required by
 * `useUnsafeActionEndpoint`, whose routes carry no index).
 *
 * @throws ValidationError `DUPLICATE_ACTION_SLUG` naming both actions.
 */
export function assertUniqueActionSlugs(collection: Collection): void {
  const seen = new Map<string, string>();
  for (const name of Object.keys(collection.schema.actions)) {
    const slug = actionSlug(name);
    const previous = seen.get(slug);
    if (previous !== undefined) {
      throw new ValidationError(
        `Actions '${previous}' and '${name}' of '${collection.name}' both have the route slug '${slug}', ` +
          'which useUnsafeActionEndpoint cannot tell apart: rename one of them or turn the option off.',
        { code: 'DUPLICATE_ACTION_SLUG' },
      );
    }
    seen.set(slug, name);
  }
}
