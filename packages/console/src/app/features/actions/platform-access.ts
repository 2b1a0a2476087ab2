/**
 * Where the approvals client gets the user's platform access token. The console's platform
 * sign-in registers its token source here; without one, approvals say how to get access.
 */
import { useMemo } from 'react';
import { ApprovalsClient } from '../../../protocol';
import { useSession } from '../../session';

let tokenSource: () => string | undefined = () => undefined;

/** Registers the function that hands out the current platform access token. */
export function setPlatformTokenSource(source: () => string | undefined): void {
  tokenSource = source;
}

/** The approvals client of the signed-in workspace and team. */
export function useApprovals(): ApprovalsClient {
  const { workspace, session } = useSession();
  return useMemo(
    () =>
      new ApprovalsClient({
        baseUrl: window.location.origin,
        getToken: () => tokenSource(),
        project: workspace.project,
        environment: workspace.environment,
        renderingId: session.renderingId,
      }),
    [workspace.project, workspace.environment, session.renderingId],
  );
}
