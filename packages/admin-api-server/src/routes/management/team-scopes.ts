import type { Knex } from 'knex';
import {
  FILTER_OPERATOR_VALUES,
  fieldTypeName,
  filterOperatorsForType,
  snakeCaseOperator,
} from '@canopy/platform-protocol';
import { ApiError } from '../../errors';
import { storedSchema } from '../../store/environment-schema';

/** The parts of a field object of an uploaded schema (platform protocol 13.4) a scope needs. */
interface SchemaField {
  field: string;
  type?: unknown;
  enums?: unknown;
  isFilterable?: unknown;
  /** Operators the agent allows on the field, when its schema lists them. */
  filterOperators?: unknown;
  relationship?: unknown;
  reference?: unknown;
}

type SchemaCollections = Map<string, Map<string, SchemaField>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The collections of a stored schema upload (a JSON:API document) that list their fields, with
 * the fields by name.
 */
function readCollections(document: unknown): SchemaCollections {
  const collections: SchemaCollections = new Map();
  const data = isObject(document) && Array.isArray(document.data) ? document.data : [];
  for (const resource of data) {
    const attributes = isObject(resource) ? resource.attributes : undefined;
    // An agent's upload always lists the fields; a document without them cannot be checked.
    if (!isObject(attributes) || typeof attributes.name !== 'string') continue;
    if (!Array.isArray(attributes.fields)) continue;
    const fields = new Map<string, SchemaField>();
    for (const field of attributes.fields) {
      if (isObject(field) && typeof field.field === 'string') {
        fields.set(field.field, field as unknown as SchemaField);
      }
    }
    collections.set(attributes.name, fields);
  }
  return collections;
}

/** A scope that cannot be applied, with what is wrong. */
class ScopeProblem extends Error {}

const quote = (names: Iterable<string>) =>
  [...names]
    .sort()
    .map((name) => `"${name}"`)
    .join(', ');

/** A context variable (`{{currentUser.tags.region}}`), replaced by the agent per user. */
const isContextVariable = (value: unknown) =>
  typeof value === 'string' && /^\{\{[^{}]+\}\}$/.test(value.trim());

/** Why `value` does not fit a field of this type (one value, not a list), or `null`. */
function valueProblem(field: SchemaField, value: unknown): string | null {
  if (isContextVariable(value)) return null;
  const type = fieldTypeName(field.type);
  const describe = JSON.stringify(value) ?? String(value);
  switch (type) {
    case 'Number':
      return typeof value === 'number' ||
        (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        ? null
        : `expects a number, got ${describe}`;
    case 'Boolean':
      return typeof value === 'boolean' ? null : `expects true or false, got ${describe}`;
    case 'Enum': {
      const enums = Array.isArray(field.enums) ? (field.enums as unknown[]) : [];
      return enums.includes(value)
        ? null
        : `expects one of ${quote(enums.map(String))}, got ${describe}`;
    }
    case 'String':
      return typeof value === 'string' || typeof value === 'number'
        ? null
        : `expects text, got ${describe}`;
    case 'Date':
    case 'Dateonly':
    case 'Time':
    case 'Uuid':
      return typeof value === 'string'
        ? null
        : `expects a ${type.toLowerCase()} as text, got ${describe}`;
    default:
      return value === null || typeof value === 'object'
        ? `expects a plain value, got ${describe}`
        : null;
  }
}

/** The field a leaf names (`status`, or `customer:country` through a to-one relation). */
function resolveField(
  collections: SchemaCollections,
  collection: string,
  path: string,
): { field: SchemaField; label: string } {
  const [head = '', ...rest] = path.split(':');
  const fields = collections.get(collection) ?? new Map<string, SchemaField>();
  const field = fields.get(head);
  if (!field) {
    throw new ScopeProblem(
      `field "${collection}.${head}" does not exist (its fields: ${quote(fields.keys())})`,
    );
  }
  const toOne = field.relationship === 'BelongsTo' || field.relationship === 'HasOne';
  if (rest.length === 0) {
    if (field.relationship !== undefined) {
      throw new ScopeProblem(
        `"${collection}.${head}" is a relation; name one of its target's fields (${head}:<field>)`,
      );
    }
    return { field, label: `${collection}.${head}` };
  }
  const target = typeof field.reference === 'string' ? field.reference.split('.')[0] : undefined;
  if (!toOne || !target) {
    throw new ScopeProblem(
      `"${collection}.${head}" is not a to-one relation, so "${path}" names no field`,
    );
  }
  return resolveField(collections, target, rest.join(':'));
}

/** Checks one leaf `{ field, operator, value }` against the schema. */
function checkLeaf(
  collections: SchemaCollections,
  collection: string,
  leaf: Record<string, unknown>,
): void {
  if (typeof leaf.field !== 'string' || typeof leaf.operator !== 'string') {
    throw new ScopeProblem('a condition needs a text "field" and a text "operator"');
  }
  const { field, label } = resolveField(collections, collection, leaf.field);
  const operator = snakeCaseOperator(leaf.operator);
  const kind = FILTER_OPERATOR_VALUES[operator];
  if (!kind) throw new ScopeProblem(`"${leaf.operator}" is not a filter operator`);
  if (field.isFilterable === false) {
    throw new ScopeProblem(`field "${label}" is not filterable, so no scope can use it`);
  }
  const allowed = Array.isArray(field.filterOperators)
    ? (field.filterOperators as unknown[]).map((name) => snakeCaseOperator(String(name)))
    : filterOperatorsForType(field.type);
  if (!allowed.includes(operator)) {
    throw new ScopeProblem(
      `operator "${operator}" is not allowed on field "${label}" (allowed: ${allowed.join(', ') || 'none'})`,
    );
  }
  const { value } = leaf;
  const problem = (() => {
    switch (kind) {
      case 'none':
        return value === undefined || value === null ? null : 'takes no value';
      case 'list':
        if (!Array.isArray(value)) return `expects a list of values, got ${JSON.stringify(value)}`;
        return value.map((item) => valueProblem(field, item)).find(Boolean) ?? null;
      case 'text':
        return typeof value === 'string' || isContextVariable(value)
          ? null
          : `expects text, got ${JSON.stringify(value)}`;
      case 'number':
        return typeof value === 'number' || isContextVariable(value)
          ? null
          : `expects a number, got ${JSON.stringify(value)}`;
      case 'date':
        return typeof value === 'string' ? null : `expects a date, got ${JSON.stringify(value)}`;
      default:
        return valueProblem(field, value);
    }
  })();
  if (problem) throw new ScopeProblem(`"${operator}" on field "${label}" ${problem}`);
}

/** Checks a condition tree (leaves and `{ aggregator, conditions }` groups) against the schema. */
function checkTree(collections: SchemaCollections, collection: string, tree: unknown): void {
  if (!isObject(tree)) {
    throw new ScopeProblem('a scope must be a condition { field, operator, value } or a group');
  }
  if ('aggregator' in tree || 'conditions' in tree) {
    const aggregator = typeof tree.aggregator === 'string' ? tree.aggregator.toLowerCase() : '';
    if ((aggregator !== 'and' && aggregator !== 'or') || !Array.isArray(tree.conditions)) {
      throw new ScopeProblem('a group needs "aggregator" (and, or) and a list of "conditions"');
    }
    for (const condition of tree.conditions) checkTree(collections, collection, condition);
    return;
  }
  checkLeaf(collections, collection, tree);
}

/**
 * Checks team scopes against the schema each environment's agent last uploaded, so a scope no
 * agent could apply is refused when it is saved rather than when a member opens a list. A scope
 * holds in every environment of the project, so it must fit each uploaded schema that declares
 * its collection. Environments whose agent has not uploaded a schema cannot be checked and do
 * not constrain it; a collection no agent declared at all is refused by the store
 * (`collection_not_found`), as before.
 *
 * @throws ApiError 400 `invalid_scope` naming the collection, the environment and the reason
 *   (unknown field, field not filterable, operator not allowed for it, value of the wrong type).
 */
export async function assertApplicableScopes(
  knex: Knex,
  projectId: number,
  scopes: Record<string, unknown> | undefined,
): Promise<void> {
  const scoped = Object.entries(scopes ?? {}).filter(([, tree]) => tree !== null);
  if (scoped.length === 0) return;
  const environments: { id: number; name: string }[] = await knex('environments')
    .where({ project_id: projectId })
    .orderBy('id')
    .select('id', 'name');
  for (const environment of environments) {
    const collections = readCollections(await storedSchema(knex, environment.id));
    for (const [collection, tree] of scoped) {
      if (!collections.has(collection)) continue;
      try {
        checkTree(collections, collection, tree);
      } catch (error) {
        if (!(error instanceof ScopeProblem)) throw error;
        throw new ApiError(
          400,
          'invalid_scope',
          `The scope on "${collection}" cannot be applied in environment "${environment.name}": ${error.message}.`,
        );
      }
    }
  }
}
