/**
 * The `action` values of an activity log: the public API's list (section 2.5), which the
 * platform accepts from agents (`POST /liana/v1/activity-logs`) and serves back.
 */
export const ACTIVITY_LOG_ACTIONS = [
  'create',
  'read',
  'update',
  'delete',
  'action',
  'search',
  'filter',
  'listRelatedData',
  'describeCollection',
  'index',
  'select',
  'dashboard',
  'workspace',
  'export',
  'createNote',
  'openNote',
  'deleteNote',
  'createMessage',
  'createApproval',
  'approveApproval',
  'rejectApproval',
  'ignoreApprovalWarning',
  'markApprovalAsFailed',
  'startProcessingInboxTask',
  'completeInboxTask',
  'cancelInboxTask',
  'cancelInboxTaskNotTreated',
  'autoCancelInboxTask',
  'assignUserToInboxTask',
  'unassignUserFromInboxTask',
  'sendApprovalBackInReview',
  'triggerWorkflow',
  'abortWorkflow',
  'completeWorkflow',
  'selectWorkflowOption',
  'completeWorkflowStep',
  'reviseWorkflowStep',
  'resumeWorkflow',
] as const;

/** One activity-log action. */
export type ActivityLogAction = (typeof ACTIVITY_LOG_ACTIONS)[number];

const ACTIONS: ReadonlySet<string> = new Set(ACTIVITY_LOG_ACTIONS);

/** Whether `value` is one of {@link ACTIVITY_LOG_ACTIONS}. */
export function isActivityLogAction(value: unknown): value is ActivityLogAction {
  return typeof value === 'string' && ACTIONS.has(value);
}

/** The actions an agent reports: those its routes and MCP tools cause. */
export const AGENT_ACTIVITY_LOG_ACTIONS = [
  'index',
  'read',
  'search',
  'filter',
  'export',
  'create',
  'update',
  'delete',
  'action',
  'listRelatedData',
  'describeCollection',
] as const satisfies readonly ActivityLogAction[];

/** One action an agent reports. */
export type AgentActivityLogAction = (typeof AGENT_ACTIVITY_LOG_ACTIONS)[number];
