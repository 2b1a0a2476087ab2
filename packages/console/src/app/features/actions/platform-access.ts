/**
 * Where the approvals of the signed-in workspace are: through the Console's one platform client
 * (`platform`, platform.ts), the environment by project and environment names, the team. The
 * approvals API itself (protocol/approvals.ts) is built with them by the pages that use it
 * (use-approvals.ts), and loaded on first use by the sidebar's count, off the first screen.
 */
import type { ApprovalsApiOptions } from '../../../protocol';
import type { Workspace } from '../../config';
import { platform } from '../../platform';

/** The approvals API's options for `workspace` and the team `renderingId`. */
export function approvalsOptions(workspace: Workspace, renderingId?: number): ApprovalsApiOptions {
  return {
    platform,
    project: workspace.project,
    environment: workspace.environment,
    renderingId,
  };
}
