/** Data hooks over the agent client (TanStack Query): schema, lists, counts, records. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import {
  isToOne,
  type AgentClient,
  labelField,
  targetCollection,
  type AgentSchema,
  type ListParams,
  type SchemaCollection,
} from '../protocol';
import type { Right } from './config';
import { useSession } from './session';
import { rememberDenied, useWorkspace } from './workspace';
import { dataBase, workspaceBase } from './data-paths';

export { rememberDenied };

/** The schema the agent uploaded (from `useWorkspace()`), in the shape of a query. */
export function useSchema():
  | { isPending: false; isError: false; data: AgentSchema; error: null }
  | { isPending: false; isError: true; data: undefined; error: Error } {
  const { schema, schemaError } = useWorkspace();
  return schema
    ? { isPending: false, isError: false, data: schema, error: null }
    : {
        isPending: false,
        isError: true,
        data: undefined,
        error: schemaError ?? new Error('No schema.'),
      };
}

export function collectionOf(schema: AgentSchema | undefined, name: string | undefined) {
  return schema?.collections.find((collection) => collection.name === name);
}

/** `can(collection, right)` of the signed-in role (see `useWorkspace()`). */
export function useCan(): (collection: string, right: Right) => boolean {
  return useWorkspace().can;
}

/**
 * The field of the related record shown for each to-one relation: its label. One field only:
 * agents without `canUseMultipleFieldsProjectionOnRelation` (the reference agent 1.78) read
 * `fields[customer]` as a single name, and the agent adds the related primary key anyway (§6.2).
 */
export function relationProjection(
  schema: AgentSchema,
  collection: SchemaCollection,
  fields: string[],
): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const field of collection.fields) {
    if (!isToOne(field) || !fields.includes(field.field)) continue;
    const target = collectionOf(schema, targetCollection(field));
    if (target) result[field.field] = [labelField(target)];
  }
  return result;
}

export interface ListSource {
  collection: string;
  related?: { parent: string; parentId: string; relation: string };
}

/** When each list answer was decoded: the table measures its render time from there. */
export const receivedAt = new WeakMap<object, number>();

/** The list query of a page: `useList` and the first screen's prefetch share it. */
export function listQuery(
  client: AgentClient,
  workspaceId: string,
  source: ListSource,
  params: ListParams,
) {
  return {
    queryKey: ['list', workspaceId, source, params],
    // The signal aborts a list nobody waits for any more (a newer search replaced it).
    queryFn: async ({ signal }: { signal?: AbortSignal }) => {
      const records = await (source.related
        ? client.listRelated(
            source.related.parent,
            source.related.parentId,
            source.related.relation,
            source.collection,
            params,
            signal,
          )
        : client.list(source.collection, params, signal));
      receivedAt.set(records, performance.now());
      return records;
    },
  };
}

/** The count query of a view: `useCount` and the first screen's prefetch share it. */
export function countQuery(
  client: AgentClient,
  workspaceId: string,
  source: ListSource,
  params: ListParams,
) {
  const { filters, search, searchExtended, segment } = params;
  const filtering = { filters, search, searchExtended, segment };
  return {
    queryKey: ['count', workspaceId, source, filtering],
    queryFn: ({ signal }: { signal?: AbortSignal }) =>
      source.related
        ? client.countRelated(
            source.related.parent,
            source.related.parentId,
            source.related.relation,
            source.collection,
            filtering,
          )
        : client.count(source.collection, filtering, signal),
  };
}

export function useList(source: ListSource, params: ListParams, enabled = true) {
  const { client, workspace } = useSession();
  return useQuery({
    ...listQuery(client, workspace.id, source, params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useCount(source: ListSource, params: ListParams, enabled = true) {
  const { client, workspace } = useSession();
  return useQuery({
    ...countQuery(client, workspace.id, source, params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useRecord(collection: string, id: string | undefined) {
  const { client, workspace } = useSession();
  return useQuery({
    queryKey: ['record', workspace.id, collection, id],
    queryFn: () => client.get(collection, id!),
    enabled: id !== undefined,
    // The answer is kept as read: its entity tag (`etagOf`) is tied to that very object.
    structuralSharing: false,
  });
}

/** The current workspace's project and environment names: from the route, else the session. */
function useWorkspaceNames(): [project: string, environment: string] {
  const { project, environment } = useParams();
  const { workspace } = useSession();
  return [project ?? workspace.project, environment ?? workspace.environment];
}

/** `/:project/:environment/data` of the current workspace. */
export function useDataBase(): string {
  return dataBase(...useWorkspaceNames());
}

/** `/:project/:environment` of the current workspace: the base of its own pages (approvals…). */
export function useWorkspaceBase(): string {
  return workspaceBase(...useWorkspaceNames());
}
