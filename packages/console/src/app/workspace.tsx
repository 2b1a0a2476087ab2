/**
 * `useWorkspace()`: the environment the user works in, the team (rendering) they signed in with,
 * their role's rights and the schema the agent uploaded, from the platform's
 * `GET /v1/me/projects/:p/environments/:e`. The answer is read again on the live stream's
 * `rights-changed` event (features/live), on window focus and on {@link Workspace.refresh}, with
 * its ETag; while the stream cannot connect it is polled every {@link RIGHTS_POLL_MS} ms, so a
 * role change on the platform hides or shows buttons within seconds.
 *
 * ```tsx
 * const { can, canAction, rendering } = useWorkspace();
 * if (can('orders', 'deleteEnabled')) …;
 * if (canAction('orders', 'Refund', 'approvalRequired')) …;
 * ```
 */
import { Alert, Center } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { parseSchema, type AgentSchema } from '../protocol';
import { actionAllowed, allowed, type ActionRight, type Right, type RoleRights } from './config';
import { PageLoader } from './components/States';
import { useLivePoll } from './features/live/use-live-poll';
import { fetchEnvironment, PlatformError, type MeEnvironment, type MeTeam } from './platform';

/** How often the rights are checked again while the console is open. */
export const RIGHTS_POLL_MS = 5000;

export interface Workspace {
  /** `<project>/<environment>`: use it in query keys and storage keys. */
  id: string;
  project: string;
  environment: MeEnvironment;
  /** The team (rendering) the user signed in with. */
  rendering: MeTeam;
  /** The user's teams in this project. */
  teams: MeTeam[];
  role: { id: number; name: string } | null;
  /** The signed-in user's platform id (the `userId` of live events). */
  userId: number;
  /** The user's permission level in the project (`admin` opens the settings). */
  permissionLevel: string;
  /** The role's rights in the management API's shape; null without a role (nothing granted). */
  rights: RoleRights | null;
  /** Changes whenever rights, role, teams, environment or schema change. */
  rightsVersion: string;
  /** The schema the agent uploaded; undefined (and `schemaError` set) before its first start. */
  schema: AgentSchema | undefined;
  schemaError: Error | undefined;
  /** A collection right (browse, read, edit, add, delete, export). */
  can(collection: string, right: Right): boolean;
  /** An action right; `approvalRequired` answers whether the action needs an approval. */
  canAction(collection: string, action: string, right: ActionRight): boolean;
  /** Fetches the rights now (after a 403, for instance). */
  refresh(): Promise<void>;
}

/** Rights the agent refused during this session (a 403), so their buttons disappear at once. */
const denied = new Set<string>();
const listeners = new Set<() => void>();
let deniedVersion = 0;

export function rememberDenied(collection: string, right: Right): void {
  if (denied.has(`${collection}:${right}`)) return;
  denied.add(`${collection}:${right}`);
  deniedVersion += 1;
  listeners.forEach((listener) => listener());
}

function forgetDenied(): void {
  if (denied.size === 0) return;
  denied.clear();
  deniedVersion += 1;
  listeners.forEach((listener) => listener());
}

const WorkspaceContext = createContext<Workspace | undefined>(undefined);

export function useWorkspace(): Workspace {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace outside a signed-in page');
  return value;
}

export function WorkspaceProvider({
  project,
  environment,
  renderingId,
  children,
}: {
  project: string;
  environment: string;
  renderingId: number;
  children: ReactNode;
}) {
  const detail = useQuery({
    queryKey: ['me-environment', project, environment],
    queryFn: () => fetchEnvironment(project, environment),
    // Only while the live stream is down: otherwise its `rights-changed` event asks again.
    refetchInterval: useLivePoll(RIGHTS_POLL_MS),
    refetchOnWindowFocus: true,
    staleTime: 0,
    // Fetched while the agent signed the user in: the poll asks again soon enough.
    refetchOnMount: false,
    retry: (count, error) =>
      !(error instanceof PlatformError && error.status >= 400 && error.status < 500) && count < 2,
  });
  // An expired platform session asks for a new sign-in inside the call (the platform client's
  // 401 policy, platform.ts): the poll goes on once the user signed in again.
  const { refetch } = detail;
  const deniedNow = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => deniedVersion,
  );
  const data = detail.data;
  // A new rights version from the platform replaces what the agent refused meanwhile.
  useEffect(forgetDenied, [data?.rightsVersion]);
  const refresh = useCallback(async () => {
    await refetch();
  }, [refetch]);

  const schemaOf = useMemo((): { schema?: AgentSchema; error?: Error } => {
    if (!data) return {};
    if (data.schema === null || data.schema === undefined) {
      return {
        error: new Error(
          `The agent of ${data.project.name} / ${data.environment.name} has not uploaded its schema yet: start it once, then reload.`,
        ),
      };
    }
    try {
      return { schema: parseSchema(data.schema) };
    } catch (error) {
      return { error: error as Error };
    }
    // The schema only changes with the version.
  }, [data?.rightsVersion]);

  const value = useMemo((): Workspace | undefined => {
    if (!data) return undefined;
    const development = data.environment.isDevelopment;
    return {
      id: `${data.project.name}/${data.environment.name}`,
      project: data.project.name,
      environment: data.environment,
      rendering: data.teams.find((team) => team.id === renderingId) ?? {
        id: renderingId,
        name: '',
      },
      teams: data.teams,
      role: data.role,
      userId: data.user.id,
      permissionLevel: data.user.permissionLevel,
      rights: data.rights,
      rightsVersion: data.rightsVersion,
      schema: schemaOf.schema,
      schemaError: schemaOf.error,
      can: (collection, right) => allowed(data.rights, development, collection, right, denied),
      canAction: (collection, action, right) =>
        actionAllowed(data.rights, development, collection, action, right),
      refresh,
    };
    // `deniedNow` makes `can` a new function when the agent refused a right.
  }, [data, renderingId, schemaOf, refresh, deniedNow]);

  if (!value) {
    if (detail.isError) {
      return (
        <Center h="100vh" p="md">
          <Alert color="red" title="This environment could not be opened" maw={520}>
            {detail.error.message}
          </Alert>
        </Center>
      );
    }
    return <PageLoader label="Loading your rights" />;
  }
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
