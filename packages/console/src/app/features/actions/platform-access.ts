/**
 * The approvals client of the signed-in workspace: the console's platform access token (its own
 * OIDC sign-in, `platform.ts`), the environment by project and environment names, the team.
 */
import { useMemo } from 'react';
import { ApprovalsClient } from '../../../protocol';
import { currentPlatformToken } from '../../platform';
import { useSession } from '../../session';

/** The approvals client of the signed-in workspace and team. */
export function useApprovals(): ApprovalsClient {
  const { workspace, session } = useSession();
  return useMemo(
    () =>
      new ApprovalsClient({
        baseUrl: window.location.origin,
        getToken: () => currentPlatformToken()?.accessToken,
        project: workspace.project,
        environment: workspace.environment,
        renderingId: session.renderingId,
      }),
    [workspace.project, workspace.environment, session.renderingId],
  );
}
