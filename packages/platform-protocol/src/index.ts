// Activity logs
export {
  ACTIVITY_LOG_ACTIONS,
  type ActivityLogAction,
  AGENT_ACTIVITY_LOG_ACTIONS,
  type AgentActivityLogAction,
  isActivityLogAction,
} from './activity-log-actions';

// Role rights
export {
  ACTION_CONDITIONS,
  ACTION_RIGHTS,
  type ActionCondition,
  type ActionRight,
  type ActionRights,
  COLLECTION_RIGHTS,
  type CollectionRight,
  type CollectionRights,
  type PlainConditionTree,
  type RoleRights,
  type RoleWithRights,
} from './role-rights';

// Environment permissions (platform protocol 5.1)
export {
  type ActionRightsJson,
  type CollectionRightsJson,
  type CollectionWithActions,
  environmentPermissions,
  type EnvironmentPermissionsJson,
  type EnvironmentRightsJson,
  type RoleCondition,
  type RoleRight,
} from './environment-permissions';

// Charts
export { CHART_KEYS, CHART_KINDS, type ChartKey, type ChartKind } from './charts';

// Action forms
export { type ActionLayoutElement } from './action-layout';

// Record history (agent protocol §13.1)
export { type HistoryEntry, type HistoryOperation } from './record-history';

// The signed-in user (public API `/v1/me/...`)
export {
  type MeEnvironment,
  type MeEnvironmentDetail,
  type MeProject,
  type MeTeam,
  type MeWorkspaces,
} from './me';

// Filter operators of condition trees (front ends, team scopes)
export {
  FILTER_OPERATOR_VALUES,
  FILTER_OPERATORS_BY_TYPE,
  fieldTypeName,
  filterOperatorsForType,
  type FilterValueKind,
  snakeCaseOperator,
} from './filter-operators';

// CSV exports
export { neutralizeCsvCell } from './csv-cells';

// The platform's error answers (public and management API)
export { type PlatformErrorBody } from './error-body';

// Action approval requests (the platform's `/api/action-approvals`)
export {
  type ActionApprovalCommentJson,
  type ActionApprovalInputJson,
  type ActionApprovalResource,
  type ActionApprovalStatus,
  type ApprovalPersonJson,
} from './action-approval';

// Project members (management API) and the users agents read (platform protocol 5.2)
export { type Member, PERMISSION_LEVELS, type PermissionLevel, type PlatformUser } from './members';

// IP whitelist rules (platform protocol §4)
export { type IpRule } from './ip-rules';

// Application tokens' scopes (spec §5)
export { APPLICATION_TOKEN_SCOPES, type ApplicationTokenScope } from './token-scopes';

// MCP OAuth clients (RFC 7591 registration, docs/mcp-server.md)
export { type McpClientRegistration } from './mcp-client-registration';

// The public API's log items (`/v1/activity-logs`, `/v1/admin-logs`)
export {
  type ActivityLogFilterParameters,
  type ActivityLogItem,
  type AdminLogItem,
  type PublicApiUser,
} from './public-api-logs';

// The management API's items (`/v1/project/{project}/…`)
export {
  type ApplicationTokenItem,
  type ManagedEnvironment,
  type ManagedRole,
  type ManagedTeam,
  type MemberInvitation,
  type ProjectDetails,
} from './management';

// Who signed in to an agent (agent protocol §3.2: the session token's claims)
export {
  type AuthenticationCallbackAnswer,
  SESSION_PERMISSION_LEVELS,
  type SessionIdentity,
  type SessionPermissionLevel,
} from './session-identity';

// The agent's JSON:API documents (agent protocol §7): one decoder for the Console and the test client
export {
  type AgentRecord,
  decodeList,
  decodeOne,
  encodeRecord,
  type JsonApiDocument,
  type JsonApiResource,
  packId,
  type ResourceIdentifier,
} from './agent-jsonapi';

// The activity logs an agent reports (`POST /liana/v1/activity-logs`, platform protocol §10)
export { type ActivityLogReport } from './activity-log-report';

// The public API's notes and list pages (`/v1/…/notes`)
export { type NoteItem, type NoteMessageItem, type PublicApiPage } from './public-api-notes';

// Console layouts, saved views and team segments (issue 32)
export {
  type CollectionLayout,
  type ConsoleLayout,
  DURATION_UNITS,
  type FieldTab,
  type FormLayout,
  LAYOUT_EDITOR_LEVELS,
  LAYOUT_WIDGETS,
  type LayoutColour,
  type LayoutDraft,
  type LayoutOrigin,
  type LayoutSection,
  type LayoutWidget,
  type LayoutWidgetType,
  NUMBER_FORMATS,
  type PublishedLayout,
  type RecordPageLayout,
  type RelatedTab,
  type RenderingFilterSegment,
  type SavedView,
  type SidebarCollection,
  type SidebarGroup,
  TABLE_DENSITIES,
  TABLE_PAGE_SIZES,
  type TableLayout,
  type TeamSegment,
} from './console-layouts';
// The agent's query strings (agent protocol §6) and bulk selection bodies (§6.9)
export {
  agentCountQuery,
  type AgentConditionTree,
  type AgentQuery,
  agentQueryEntries,
  type AgentSelection,
  type QueryEntry,
  queryString,
  selectionAttributes,
  selectionBody,
  type SelectionScope,
} from './agent-query';

// Console live stream and inbox (docs/public-api.md §8)
export {
  CONSOLE_EVENT_NAMES,
  type ApprovalDecidedEvent,
  type ApprovalInboxItem,
  type ApprovalRequestedEvent,
  type ConsoleEventName,
  type ConsoleStreamTicket,
  type InboxItem,
  type InboxPage,
  type MemberSuggestion,
  type MentionEvent,
  type MentionInboxItem,
  type NoteChangedEvent,
  type PresenceEvent,
  type RecordChangedEvent,
  type ResyncEvent,
  type RightsChangedEvent,
} from './console-live';
