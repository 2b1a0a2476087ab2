import type { SchemaField } from '../../schema/schema-json';
import { findCollection, targetOf } from './tool-context';
import { defineTool } from './tool-definition';
import { collectionNameInput } from './tool-inputs';

const RELATION_KINDS: Record<NonNullable<SchemaField['relationship']>, string> = {
  BelongsTo: 'many-to-one',
  HasOne: 'one-to-one',
  HasMany: 'one-to-many',
  BelongsToMany: 'many-to-many',
};

/** `A_b` ← `a_b`: operators as the filters of the other tools take them. */
function toPascalCase(operator: string): string {
  return operator.replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());
}

/** `describeCollection`: fields with their operators, relations and actions of a collection. */
export const describeCollectionTool = defineTool({
  name: 'describeCollection',
  description:
    'Describe a collection: its fields (type, filter operators, primary key, read-only, required, ' +
    'sortable), its relations and its actions. Call it before filtering or writing.',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  scope: 'mcp:read',
  input: (names) => ({ collectionName: collectionNameInput(names) }),
  async run(input, context) {
    const collection = findCollection(context, input.collectionName);
    const [capabilities] = await context.agent.capabilities([collection.name]);
    const operators = new Map(
      (capabilities?.fields ?? []).map((field) => [
        field.name as string,
        ((field.operators as string[] | undefined) ?? []).map(toPascalCase),
      ]),
    );
    context.services.activityLogs.record({
      type: 'read',
      action: 'describeCollection',
      label: `described ${collection.name}`,
      userId: context.claims.id,
      renderingId: context.claims.renderingId,
      collectionName: collection.name,
      recordIds: [],
    });
    return {
      collection: collection.name,
      fields: collection.fields
        .filter((field) => field.relationship === undefined)
        .map((field) => ({
          name: field.field,
          type: field.type,
          operators: operators.get(field.field) ?? [],
          isPrimaryKey: field.isPrimaryKey,
          isReadOnly: field.isReadOnly,
          isRequired: field.isRequired,
          isSortable: field.isSortable,
          ...(field.enums && field.enums.length > 0 ? { enumValues: field.enums } : {}),
        })),
      relations: collection.fields
        .filter(
          (field) => field.relationship !== undefined && context.collections.has(targetOf(field)),
        )
        .map((field) => ({
          name: field.field,
          type: RELATION_KINDS[field.relationship as keyof typeof RELATION_KINDS],
          targetCollection: targetOf(field),
        })),
      actions: collection.actions.map((action) => ({
        name: action.name,
        type: action.type,
        description: action.description ?? null,
        hasForm: action.fields.length > 0 || action.hooks.load,
        download: action.download,
      })),
      _meta: { capabilitiesAvailable: true },
    };
  },
});
