/**
 * The first screen after sign-in is the first collection the user may browse. Its list and count
 * are requested as soon as the agent session exists, while React mounts the shell, instead of
 * after the table's first render.
 */
import type { QueryClient } from '@tanstack/react-query';
import { AgentClient, DEFAULT_VIEW, parseSchema, type AgentSchema } from '../protocol';
import { tableListParams, readColumns } from './components/columns';
import { allowed, type Right } from './config';
import { countQuery, listQuery } from './data';
import { fetchEnvironment, type MeEnvironmentDetail } from './platform';
import { timezone, type StoredSession } from './session';
import { collectionPath, dataBase } from './data-paths';

/** The collection the console opens first: the first by name the user may browse. */
export function firstCollection(
  schema: AgentSchema,
  can: (collection: string, right: Right) => boolean,
) {
  return schema.collections
    .filter((c) => !c.onlyForRelationships && can(c.name, 'browseEnabled'))
    .sort((a, b) => a.name.localeCompare(b.name))[0];
}

/** The first collection of the signed-in environment, from the platform's answer. */
function firstOf(detail: MeEnvironmentDetail) {
  if (!detail.schema) return undefined;
  const schema = parseSchema(detail.schema);
  const development = detail.environment.isDevelopment;
  const collection = firstCollection(schema, (name, right) =>
    allowed(detail.rights, development, name, right),
  );
  return collection && { schema, collection };
}

/**
 * The address of the first screen when the environment's rights and schema are in the cache
 * already (they load while the agent signs the user in): opening it at once saves the home
 * page's redirect, a second render of the whole shell.
 */
export function firstScreenPath(
  queryClient: QueryClient,
  session: StoredSession,
): string | undefined {
  const { workspace } = session;
  const detail = queryClient.getQueryData<MeEnvironmentDetail>(environmentKey(session));
  try {
    const first = detail && firstOf(detail);
    return (
      first &&
      collectionPath(dataBase(workspace.project, workspace.environment), first.collection.name)
    );
  } catch {
    return undefined;
  }
}

function environmentKey(session: StoredSession) {
  return ['me-environment', session.workspace.project, session.workspace.environment];
}

/**
 * Requests the first screen's list and count into the query cache, with the same keys as the
 * table's. Best effort: any failure leaves the table to request them itself.
 */
export async function prefetchFirstScreen(
  queryClient: QueryClient,
  session: StoredSession,
): Promise<void> {
  const { workspace } = session;
  if (!workspace.agentUrl) return;
  try {
    const detail = await queryClient.fetchQuery({
      queryKey: environmentKey(session),
      queryFn: () => fetchEnvironment(workspace.project, workspace.environment),
    });
    const first = firstOf(detail);
    if (!first) return;
    const { schema, collection } = first;
    const client = new AgentClient({
      baseUrl: workspace.agentUrl,
      timezone,
      getToken: () => session.token,
    });
    const params = tableListParams(
      schema,
      collection,
      DEFAULT_VIEW,
      readColumns(workspace.id, session.user.id, collection),
    );
    const source = { collection: collection.name };
    await Promise.all([
      queryClient.prefetchQuery(listQuery(client, workspace.id, source, params)),
      queryClient.prefetchQuery(countQuery(client, workspace.id, source, params)),
    ]);
  } catch {
    // The table asks again and shows the error.
  }
}
