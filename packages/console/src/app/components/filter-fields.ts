/**
 * What the filter builder works on, without its inputs (the builder itself loads when first
 * opened): the fields a collection can be filtered on, and the editor's root group.
 */
import {
  columns,
  humanize,
  isBranch,
  isToOne,
  operatorsFor,
  targetCollection,
  type AgentSchema,
  type ConditionBranch,
  type ConditionTree,
  type FieldOperators,
  type SchemaCollection,
  type SchemaField,
} from '../../protocol';

export interface FilterableField {
  path: string;
  label: string;
  group: string;
  field: SchemaField;
  /** The operators offered, most useful first (never empty). */
  operators: string[];
}

/** The operators of a field: its type's, narrowed to the agent's list when it gave one. */
function fieldOperators(
  collection: SchemaCollection,
  field: SchemaField,
  supported: FieldOperators | undefined,
): string[] {
  const listed = supported?.[collection.name];
  if (!listed) return operatorsFor(field);
  return operatorsFor(field, listed[field.field] ?? []);
}

/**
 * The collection's filterable columns, then each to-one relation's (`customer:last_name`). With
 * `supported` (the agent's capabilities), only the operators the agent allows on each field are
 * offered, and fields it cannot filter are left out.
 */
export function filterableFields(
  schema: AgentSchema,
  collection: SchemaCollection,
  supported?: FieldOperators,
): FilterableField[] {
  const fieldsOf = (owner: SchemaCollection, prefix: string, group: string) =>
    columns(owner).flatMap((field) => {
      const operators = fieldOperators(owner, field, supported);
      if (operators.length === 0) return [];
      const label = prefix
        ? `${humanize(prefix)} › ${humanize(field.field)}`
        : humanize(field.field);
      const path = prefix ? `${prefix}:${field.field}` : field.field;
      return [{ path, label, group, field, operators }];
    });
  const related = collection.fields.filter(isToOne).flatMap((relation) => {
    const target = schema.collections.find((c) => c.name === targetCollection(relation));
    return target ? fieldsOf(target, relation.field, humanize(relation.field)) : [];
  });
  return [...fieldsOf(collection, '', humanize(collection.name)), ...related];
}

/** The editor state: the root is always a group. */
export function asGroup(tree: ConditionTree | undefined): ConditionBranch {
  if (!tree) return { aggregator: 'and', conditions: [{ field: '', operator: '' }] };
  return isBranch(tree) ? tree : { aggregator: 'and', conditions: [tree] };
}
