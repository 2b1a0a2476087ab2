/** The approvals API of the signed-in workspace and team (platform-access.ts), for the pages. */
import { useMemo } from 'react';
import { ApprovalsApi } from '../../../protocol';
import { useSession } from '../../session';
import { approvalsOptions } from './platform-access';

export function useApprovals(): ApprovalsApi {
  const { workspace, session } = useSession();
  return useMemo(
    () => new ApprovalsApi(approvalsOptions(workspace, session.renderingId)),
    [workspace.project, workspace.environment, session.renderingId],
  );
}
