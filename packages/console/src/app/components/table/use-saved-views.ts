/**
 * A collection's saved views (the caller's own and those shared with their teams) and the signed-in
 * team's Console segments, from the platform (docs/public-api.md §7), with the calls that change
 * them. Each list refetches after a change; a new segment reaches the agent with the team's
 * rendering permissions shortly after (platform protocol §5.3).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedView, TeamSegment } from '@canopy/platform-protocol';
import { intersect, treeFromWire, type ListParams, type SavedViewBody } from '../../../protocol';
import { useAgentCapabilitiesState } from '../../use-agent-capabilities';
import { platformJson, usePlatformPaths } from '../../platform-calls';
import { countQuery } from '../../data';
import { useSession } from '../../session';
import { useWorkspace } from '../../workspace';

const viewsKey = (workspace: string, collection: string) => ['saved-views', workspace, collection];
const segmentsKey = (workspace: string, team: string, collection: string) => [
  'team-segments',
  workspace,
  team,
  collection,
];

export function useSavedViews(collection: string) {
  const workspace = useWorkspace();
  const paths = usePlatformPaths();
  return useQuery({
    queryKey: viewsKey(workspace.id, collection),
    queryFn: () =>
      platformJson<{ data: SavedView[] }>(
        `${paths.environment}/views?collection=${encodeURIComponent(collection)}`,
      ).then((answer) => answer.data),
    staleTime: 30_000,
  });
}

/** The Console segments of the team the user signed in with. */
export function useTeamSegments(collection: string, enabled = true) {
  const workspace = useWorkspace();
  const paths = usePlatformPaths();
  const team = workspace.rendering.name;
  return useQuery({
    queryKey: segmentsKey(workspace.id, team, collection),
    queryFn: () =>
      platformJson<{ data: TeamSegment[] }>(
        `${paths.environment}/teams/${encodeURIComponent(team)}/segments?collection=${encodeURIComponent(collection)}`,
      ).then((answer) => answer.data),
    staleTime: 30_000,
    enabled,
  });
}

/**
 * The teams a view may be shared with and a segment made for: the user's own teams, and every
 * team of the project for an admin (the platform lets admins work on any team, §7).
 */
export function useShareTeams(): string[] {
  const workspace = useWorkspace();
  const paths = usePlatformPaths();
  const admin = workspace.permissionLevel === 'admin';
  const project = useQuery({
    queryKey: ['project-teams', workspace.project],
    queryFn: () => platformJson<{ teams?: { name: string }[] }>(paths.project),
    enabled: admin,
    staleTime: 60_000,
  });
  const own = workspace.teams.map((team) => team.name);
  return [...new Set([...own, ...(project.data?.teams ?? []).map((team) => team.name)])];
}

/** The number of records a view or segment shows: asked when shown, kept a minute. */
/**
 * List parameters the agent can answer. A segment built in the Console for the team goes to an
 * agent that applies such segments (`canUseConsoleSegments`: ours reads them from the rendering,
 * docs/agent-http-protocol.md §6.7) by name; to any other agent (the reference applies only the
 * segments of its code) as its filter, joined to the list's, so that rows, counts, selections and
 * exports are the same on both. `ready` is false until the agent's capabilities and, for such a
 * segment, the team's segments are known: nothing should be asked before.
 */
export function useAgentListParams<T extends Partial<ListParams>>(
  collection: string,
  /** The names of the segments of the collection's schema (the agent's own). */
  schemaSegments: readonly string[],
  params: T,
): { params: T; ready: boolean } {
  const { capabilities, settled } = useAgentCapabilitiesState();
  const named = params.segment;
  const consoleSegment = named !== undefined && !schemaSegments.includes(named);
  const byName = capabilities.canUseConsoleSegments === true;
  const segments = useTeamSegments(collection, consoleSegment && settled && !byName);
  if (!consoleSegment) return { params, ready: true };
  if (!settled) return { params, ready: false };
  if (byName) return { params, ready: true };
  if (segments.isPending) return { params, ready: false };
  const segment = segments.data?.find((candidate) => candidate.name === named);
  // An unknown name stays as it is: the agent's answer says what is wrong with it.
  if (!segment) return { params, ready: true };
  return {
    params: {
      ...params,
      segment: undefined,
      filters: intersect(params.filters, treeFromWire(segment.filter)),
    },
    ready: true,
  };
}

export function useViewCount(
  collection: string,
  filtering: Partial<ListParams>,
  schemaSegments: readonly string[] = [],
) {
  const { client, workspace } = useSession();
  const answerable = useAgentListParams(collection, schemaSegments, filtering);
  return useQuery({
    ...countQuery(client, workspace.id, { collection }, answerable.params as ListParams),
    enabled: answerable.ready,
    staleTime: 60_000,
    // Right after a segment is created the agent may not know it yet (its rendering is refreshed
    // within a second): asked again a few times.
    retry: 3,
    retryDelay: (attempt) => 700 * (attempt + 1),
  });
}

/** The platform calls on views, segments and team defaults; each refreshes what it changed. */
export function useSavedViewCalls(collection: string) {
  const workspace = useWorkspace();
  const paths = usePlatformPaths();
  const queryClient = useQueryClient();
  const team = (name: string) => `${paths.environment}/teams/${encodeURIComponent(name)}`;
  const refreshViews = () =>
    queryClient.invalidateQueries({ queryKey: viewsKey(workspace.id, collection) });
  const refreshSegments = () =>
    queryClient.invalidateQueries({ queryKey: ['team-segments', workspace.id] });
  const call = <T>(fn: () => Promise<T>, refresh: () => Promise<void>) =>
    fn().then(async (answer) => {
      await refresh();
      return answer;
    });
  return {
    create: useMutation({
      mutationFn: (body: SavedViewBody) =>
        call(
          () =>
            platformJson<SavedView>(`${paths.environment}/views`, { method: 'POST', json: body }),
          refreshViews,
        ),
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: Partial<SavedViewBody> }) =>
        call(
          () =>
            platformJson<SavedView>(`${paths.environment}/views/${id}`, {
              method: 'PATCH',
              json: body,
            }),
          refreshViews,
        ),
    }),
    remove: useMutation({
      mutationFn: (id: number) =>
        call(
          () => platformJson<void>(`${paths.environment}/views/${id}`, { method: 'DELETE' }),
          refreshViews,
        ),
    }),
    setDefault: useMutation({
      mutationFn: ({ teamName, viewId }: { teamName: string; viewId: number | null }) =>
        call(
          () =>
            platformJson<void>(
              `${team(teamName)}/default-views/${encodeURIComponent(collection)}`,
              viewId === null ? { method: 'DELETE' } : { method: 'PUT', json: { viewId } },
            ),
          refreshViews,
        ),
    }),
    createSegment: useMutation({
      mutationFn: ({
        teamName,
        name,
        filter,
      }: {
        teamName: string;
        name: string;
        filter: unknown;
      }) =>
        call(
          () =>
            platformJson<TeamSegment>(`${team(teamName)}/segments`, {
              method: 'POST',
              json: { name, collection, filter },
            }),
          refreshSegments,
        ),
    }),
  };
}
