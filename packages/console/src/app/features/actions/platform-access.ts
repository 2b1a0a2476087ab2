/**
 * The approvals of the signed-in workspace: through the Console's one platform client
 * (`platform`, platform.ts), the environment by project and environment names, the team.
 */
import { useMemo } from 'react';
import { ApprovalsApi } from '../../../protocol';
import { platform } from '../../platform';
import { useSession } from '../../session';

/** The approvals API of the signed-in workspace and team. */
export function useApprovals(): ApprovalsApi {
  const { workspace, session } = useSession();
  return useMemo(
    () =>
      new ApprovalsApi({
        platform,
        project: workspace.project,
        environment: workspace.environment,
        renderingId: session.renderingId,
      }),
    [workspace.project, workspace.environment, session.renderingId],
  );
}
