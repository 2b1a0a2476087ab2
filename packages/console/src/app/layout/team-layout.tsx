/**
 * The layout of the team the user signed in with (issue 32, public API §7): the published one,
 * read once when the workspace opens and kept like the schema (members see a new publish on their
 * next load; the editor at once), and — for a layout editor in layout mode — their own draft,
 * previewed in their Console only. No published layout, or one the platform will not give,
 * is today's Console.
 *
 * ```tsx
 * const layout = useTeamLayout().layout; // the draft while previewing, else the published one
 * ```
 */
import {
  LAYOUT_EDITOR_LEVELS,
  type ConsoleLayout,
  type LayoutDraft,
  type PublishedLayout,
} from '@canopy/platform-protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { PageLoader } from '../components/States';
import { platform } from '../platform';
import { useWorkspace } from '../workspace';

export interface TeamLayout {
  /** What the Console shows: the draft while previewing it, else the published layout. */
  layout: ConsoleLayout | null;
  published: PublishedLayout | null;
  teamName: string;
  /** The user may edit the team's layout (LAYOUT_EDITOR_LEVELS). */
  canEdit: boolean;
  /** The draft shown instead of the published layout (layout mode), or null. */
  preview: ConsoleLayout | null;
  setPreview(layout: ConsoleLayout | null): void;
  /** Reads the published layout again (after a publish or an undo). */
  reload(): Promise<void>;
}

/** `/v1/project/{p}/environment/{e}/teams/{team}/layout` and its sub-paths. */
export function layoutPath(project: string, environment: string, team: string, rest = '') {
  const part = encodeURIComponent;
  return `/v1/project/${part(project)}/environment/${part(environment)}/teams/${part(team)}/layout${rest}`;
}

const Context = createContext<TeamLayout | undefined>(undefined);

const NONE: TeamLayout = {
  layout: null,
  published: null,
  teamName: '',
  canEdit: false,
  preview: null,
  setPreview: () => undefined,
  reload: () => Promise.resolve(),
};

/** The team layout; today's Console (no layout) outside the provider (tests, login). */
export function useTeamLayout(): TeamLayout {
  return useContext(Context) ?? NONE;
}

export function TeamLayoutProvider({ children }: { children: ReactNode }) {
  const workspace = useWorkspace();
  const queryClient = useQueryClient();
  const teamName = workspace.rendering.name;
  const key = ['team-layout', workspace.id, teamName];
  const published = useQuery({
    queryKey: key,
    queryFn: () =>
      layoutCalls(workspace.project, workspace.environment.name, teamName).readPublished(),
    enabled: teamName !== '',
    staleTime: Infinity,
    retry: 1,
  });
  const [preview, setPreview] = useState<ConsoleLayout | null>(null);
  const value = useMemo(
    (): TeamLayout => ({
      layout: preview ?? published.data?.layout ?? null,
      published: published.data ?? null,
      teamName,
      canEdit:
        teamName !== '' &&
        (LAYOUT_EDITOR_LEVELS as readonly string[]).includes(workspace.permissionLevel),
      preview,
      setPreview,
      reload: () => queryClient.invalidateQueries({ queryKey: key }),
    }),
    [preview, published.data, teamName, workspace.permissionLevel, queryClient],
  );
  // Waits for the first answer (a failure is today's Console), so columns do not jump.
  if (teamName !== '' && published.isPending) return <PageLoader label="Loading your layout" />;
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** The calls of layout mode: the caller's draft, publish, undo of the last publish. */
export function layoutCalls(project: string, environment: string, team: string) {
  const path = (rest = '') => layoutPath(project, environment, team, rest);
  return {
    readPublished: () =>
      platform
        .json<{ published: PublishedLayout | null }>(path())
        .then((answer) => answer?.published ?? null),
    readDraft: () => platform.json<LayoutDraft>(path('/draft')),
    saveDraft: (layout: ConsoleLayout) =>
      platform.json<LayoutDraft>(path('/draft'), { method: 'PUT', json: { layout } }),
    discardDraft: () => platform.send(path('/draft'), { method: 'DELETE' }).then(() => undefined),
    publish: () => platform.json<PublishedLayout>(path('/publish'), { method: 'POST' }),
    versions: () => platform.json<{ data: PublishedLayout[] }>(path('/versions')),
    revert: (version: number) =>
      platform.json<PublishedLayout>(path(`/versions/${version}/revert`), { method: 'POST' }),
    copyFrom: (fromTeamName: string) =>
      platform.json<PublishedLayout>(path('/copy'), { method: 'POST', json: { fromTeamName } }),
  };
}
