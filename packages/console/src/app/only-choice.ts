import type { Workspace } from './config';

/**
 * The environment and team to open without asking, when the user has exactly one of each (one
 * project, one environment, one team, and that environment has an agent address); otherwise
 * undefined and the sign-in page shows the chooser.
 */
export function onlyChoice(
  workspaces: readonly Workspace[],
): { workspace: Workspace; renderingId: number } | undefined {
  const [workspace, ...others] = workspaces;
  if (!workspace || others.length > 0 || !workspace.agentUrl) return undefined;
  const [rendering, ...otherTeams] = workspace.renderings;
  if (!rendering || otherTeams.length > 0) return undefined;
  return { workspace, renderingId: rendering.id };
}
