/**
 * The teams whose layout the user may edit in layout mode: their own teams, and for a project
 * admin every team of the project (the platform lets admins act on any team; `GET /v1/project/{p}`
 * lists them). The signed-in team always comes first.
 */
import { useQuery } from '@tanstack/react-query';
import { ManagementApi } from '../features/settings/management-api';
import { platform } from '../platform';
import { useWorkspace } from '../workspace';

export function useEditableTeams(own: string): string[] {
  const workspace = useWorkspace();
  const admin = workspace.permissionLevel === 'admin';
  const project = useQuery({
    queryKey: ['layout-teams', workspace.project],
    queryFn: () => new ManagementApi(platform).details(workspace.project),
    enabled: admin,
    staleTime: 60_000,
  });
  const names = [
    own,
    ...workspace.teams.map((team) => team.name),
    ...(project.data?.teams ?? []).map((team) => team.name),
  ];
  return [...new Set(names.filter((name) => name !== ''))];
}
