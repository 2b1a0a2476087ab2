import type { SessionClaims } from '../../operations/session-claims';
import type { AgentServices } from '../../platform/agent-services';
import type { SchemaCollection, SchemaField } from '../../schema/schema-json';
import type { AgentOperations } from '../agent-operations';
import type { ApprovalRequest } from '../platform-approvals';
import type { UploadStore } from './upload-store';

/** What a tool call knows: the caller, the published schema and a way to call the agent. */
export interface ToolContext {
  /** The verified claims of the MCP access token (the same user the agent will see). */
  readonly claims: SessionClaims;
  /** The collections of the published schema the caller may browse, by name. */
  readonly collections: ReadonlyMap<string, SchemaCollection>;
  readonly services: AgentServices;
  /** The agent's operations, run in memory as the caller. */
  readonly agent: AgentOperations;
  /** Files an approval request on the platform as the caller; resolves its id. */
  requestApproval(request: ApprovalRequest): Promise<string>;
  /** The files uploaded with `uploadActionFile`. */
  readonly uploads: UploadStore;
  /** Largest file `uploadActionFile` accepts, in bytes. */
  readonly maxUploadBytes: number;
}

/**
 * A failure the model can act on: the text says what was wrong and what would be right. (Agent
 * refusals are the operations' own errors, worded `<detail> (HTTP <status>)` by tool-refusal.ts,
 * platform protocol §16.5.)
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The collection `name`, or a {@link ToolError} listing the collections the caller can use. */
export function findCollection(context: ToolContext, name: string): SchemaCollection {
  const collection = context.collections.get(name);
  if (!collection) {
    throw new ToolError(
      `Unknown collection "${name}". Collections you can use: ${[...context.collections.keys()].join(', ')}.`,
    );
  }
  return collection;
}

const TO_MANY = new Set(['HasMany', 'BelongsToMany']);

/** Whether a schema field is a relation, and of which kind. */
export function isRelation(field: SchemaField): boolean {
  return field.relationship !== undefined;
}

/** The to-many relation `name` of `collection`, or a {@link ToolError} listing the valid ones. */
export function findToManyRelation(collection: SchemaCollection, name: string): SchemaField {
  const relations = collection.fields.filter(
    (field) => field.relationship !== undefined && TO_MANY.has(field.relationship),
  );
  const found = relations.find((field) => field.field === name);
  if (!found) {
    throw new ToolError(
      `Unknown to-many relation "${name}" on "${collection.name}". ` +
        `Valid to-many relations: ${relations.map((field) => field.field).join(', ') || '(none)'}.`,
    );
  }
  return found;
}

/** The collection a relation field points to (`reference` is `target.key`). */
export function targetOf(field: SchemaField): string {
  return (field.reference ?? '').split('.')[0] ?? '';
}

/** The field names the published schema shows for each collection the caller may browse. */
export function schemaFieldNames(
  context: ToolContext,
): (name: string) => ReadonlySet<string> | undefined {
  return (name) => {
    const collection = context.collections.get(name);
    return collection ? new Set(collection.fields.map((field) => field.field)) : undefined;
  };
}

/** Record ids travel as strings; composite keys are pipe-joined by the caller. */
export function packId(id: string | number): string {
  return String(id);
}
