// Public API of @canopy/agent-core: what an application needs to run and customize its agent.
// Named exports only, grouped by layer. Data source and plugin authors: `./toolkit` (package.json).

// The data model an application uses in its customizations. A data source or plugin author
// finds the rest (base classes, validators, evaluator, operator rewrites) in
// `@canopy/agent-core/toolkit` (toolkit/index.ts).

// Data model: schemas
export {
  PRIMITIVE_TYPES,
  isPrimitiveType,
  isArrayType,
  isNestedEnum,
  type PrimitiveType,
  type ColumnType,
  type CompositeColumnType,
  type NestedEnumType,
} from './toolkit/schema/column-type';
export type {
  ColumnSchema,
  ValidationRule,
  ManyToOneSchema,
  OneToManySchema,
  OneToOneSchema,
  ManyToManySchema,
  RelationSchema,
  ToOneRelationSchema,
  FieldSchema,
} from './toolkit/schema/field-schema';
export type {
  DateOperation,
  ActionScope,
  ActionSchema,
  AggregationCapabilities,
  CollectionSchema,
  DataSourceSchema,
} from './toolkit/schema/collection-schema';
export {
  getPrimaryKeys,
  getColumnNames,
  getField,
  getColumn,
  getRelation,
} from './toolkit/schema/schema-utils';

// Data model: callers, records, errors
export { callerIdentity } from './toolkit/caller';
export type { Caller, CallerIdentity, CallerTransaction, PermissionLevel } from './toolkit/caller';
export type { AuditTrailOptions } from './audit-trail/audit-trail-options';
export {
  getPrimaryKey,
  getFieldValue,
  unflattenRecord,
  packId,
  unpackId,
  type RecordData,
  type CompositeId,
} from './toolkit/record/record-utils';
export {
  CanopyError,
  isCanopyError,
  ValidationError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  PreconditionFailedError,
  UnprocessableError,
  InvalidScopeError,
  BusinessError,
  type ErrorFamily,
  type CanopyErrorCode,
} from './toolkit/errors/canopy-error';
export {
  MissingCollectionError,
  MissingFieldError,
  MissingColumnError,
  MissingRelationError,
  AlreadyDefinedFieldError,
  RelationFieldAccessDeniedError,
  UnexpectedFieldTypeError,
} from './toolkit/errors/schema-errors';

// Data model: queries (spec §2.7)
export {
  OPERATORS,
  MINIMAL_OPERATORS,
  OPERATORS_BY_TYPE,
  isOperator,
  type Operator,
} from './toolkit/query/operators';
export {
  ConditionTree,
  type Aggregator,
  type PlainConditionTree,
  type PlainConditionTreeLeaf,
  type PlainConditionTreeBranch,
} from './toolkit/query/condition-tree/condition-tree';
export { ConditionTreeLeaf } from './toolkit/query/condition-tree/condition-tree-leaf';
export { ConditionTreeBranch } from './toolkit/query/condition-tree/condition-tree-branch';
export { ConditionTreeFactory } from './toolkit/query/condition-tree/condition-tree-factory';
export { Filter, type FilterComponents, type LiveQuerySegment } from './toolkit/query/filter';
export { PaginatedFilter, type PaginatedFilterComponents } from './toolkit/query/paginated-filter';
export { Sort, type SortClause } from './toolkit/query/sort';
export { Page } from './toolkit/query/page';
export { Projection } from './toolkit/query/projection';
export {
  Aggregation,
  type AggregationOperation,
  type AggregationGroup,
  type AggregationComponents,
  type AggregateResult,
} from './toolkit/query/aggregation';

// Data model: collections and data sources
export type { Collection } from './toolkit/interfaces/collection';
export type { DataSource, DataSourceFactory } from './toolkit/interfaces/data-source';
export type { Logger, LoggerLevel } from './toolkit/interfaces/logger';

// Data model: action, form and chart results
export type {
  ActionResult,
  SuccessActionResult,
  ErrorActionResult,
  WebhookActionResult,
  FileActionResult,
  RedirectActionResult,
} from './toolkit/action/action-result';
export {
  ACTION_FIELD_TYPES,
  type ActionFieldType,
  type ActionFieldWidget,
  type ActionFieldOption,
  type ActionField,
  type ActionLayoutElement,
  type ActionFormElement,
  type GetFormMetas,
} from './toolkit/action/action-form';
export type {
  Chart,
  ChartTimeRange,
  ValueChart,
  DistributionChart,
  TimeBasedChart,
  MultipleTimeBasedChart,
  PercentageChart,
  ObjectiveChart,
  LeaderboardChart,
} from './toolkit/chart/chart';

// Data model: an in-memory data source (tests and prototypes)
export {
  InMemoryDataSource,
  createInMemoryDataSource,
} from './toolkit/in-memory/in-memory-data-source';
export type {
  InMemoryCollectionDefinition,
  InMemoryColumn,
} from './toolkit/in-memory/in-memory-collection';

// Customizer: agent- and collection-level customization API
export {
  DataSourceCustomizer,
  type DataSourceCustomizerOptions,
  type DataSourceOptions,
  type ApplyingState,
  type CustomizationTask,
} from './customizer/data-source-customizer';
export {
  CollectionCustomizer,
  type ExternalRelationDefinition,
} from './customizer/collection-customizer';
export type { Plugin } from './customizer/plugin';
export type { CollectionRenaming } from './customizer/composite/rename-collection-data-source';

// Customizer: contexts
export {
  AgentCustomizationContext,
  CollectionCustomizationContext,
} from './customizer/context/customization-context';
export {
  RelaxedCollection,
  RelaxedDataSource,
  type PlainFilter,
} from './customizer/context/relaxed-collection';

// Customizer: computed fields, relations, operators, sorting, search, segments
export type { ComputedDefinition } from './customizer/decorators/computed/computed-definition';
export type { PartialRelation } from './customizer/decorators/relation/relation-collection';
export type { OperatorReplacer } from './customizer/decorators/operators-emulate/operators-emulate-collection';
export {
  SearchContext,
  type SearchReplacer,
  type SearchOptions,
} from './customizer/decorators/search/search-collection';
export type { SegmentDefinition } from './customizer/decorators/segment/segment-collection';
export type { BinaryMode } from './customizer/decorators/binary/binary-collection';

// Customizer: hooks, writes, overrides
export {
  HookBeforeListContext,
  HookAfterListContext,
  HookBeforeCreateContext,
  HookAfterCreateContext,
  HookUpdateContext,
  HookDeleteContext,
  HookBeforeAggregateContext,
  HookAfterAggregateContext,
  type HookContexts,
  type HookHandler,
  type HookPosition,
  type HookType,
} from './customizer/decorators/hook/hook-context';
export {
  WriteCustomizationContext,
  type WriteDefinition,
} from './customizer/decorators/write/write-replace-collection';
export {
  CreateOverrideContext,
  UpdateOverrideContext,
  DeleteOverrideContext,
  type CreateOverrideHandler,
  type UpdateOverrideHandler,
  type DeleteOverrideHandler,
} from './customizer/decorators/override/override-collection';

// Customizer: actions and forms
export {
  type ActionDefinition,
  type SingleActionDefinition,
  type AnyActionDefinition,
  type DynamicField,
  type DynamicLayoutElement,
  type DynamicFormElement,
  type ValueOrHandler,
  type FieldValue,
} from './customizer/action/action-definition';
export { ActionContext, ActionContextSingle } from './customizer/action/action-context';
export { ActionResultBuilder } from './customizer/action/action-result-builder';

// Customizer: charts
export { ChartResultBuilder, type TimeBasedPoint } from './customizer/chart/chart-result-builder';
export { CollectionChartContext, DataSourceChartContext } from './customizer/chart/chart-context';
export type {
  CollectionChartDefinition,
  DataSourceChartDefinition,
} from './customizer/decorators/chart/chart-collection';

// Agent: createAgent, lifecycle, options, typed customizations
export {
  createAgent,
  Agent,
  resolveAgentOptions,
  AgentError,
  isAgentError,
  AgentOptionsError,
  type AgentOptions,
  type ResolvedAgentOptions,
  type AgentDependencies,
  type DataSourceBuild,
  type TypingsSchema,
  type CollectionName,
  type TypedCollectionCustomizer,
  type CustomizerOf,
  type ColumnName,
  type FieldPath,
  type AgentErrorCode,
  type AgentOptionProblem,
} from './agent';

// Platform: errors of the platform client and the services the agent hands to its HTTP layer
export { PlatformError, isPlatformError, type PlatformErrorCode } from './platform/platform-error';
export { AuthenticationError } from './platform/authentication-error';
export type {
  AgentServices,
  AgentHttpOptions,
  ActivityLogInput,
  ActivityLogRecorder,
  AgentActivityAction,
} from './platform/agent-services';
export type {
  PermissionSource,
  EnvironmentPermissionsJson,
  PlatformUser,
  RenderingPermissionsJson,
} from './platform/permission-source';

// Schema file (.canopy-schema.json)
export { SchemaFileError } from './schema/schema-file-error';
export { AGENT_VERSION } from './schema/schema-meta';
export type {
  AgentSchema,
  SchemaCollection,
  SchemaAction,
  SchemaField,
} from './schema/schema-json';

// HTTP: the REST router and session tokens (for tests and custom mounting)
export { createAgentRouter, signSessionToken, verifySessionToken, SESSION_COOKIE } from './http';
export type { SessionClaims } from './http';

// MCP server
export {
  DEFAULT_MCP_SERVER_PORT,
  MCP_TOOL_NAMES,
  McpError,
  isMcpError,
  signMcpAccessToken,
} from './mcp';
export type { McpGrant, McpServerOptions, McpToolName, McpErrorCode } from './mcp';

// AI proxy
export { createAiProvider, AiProviderDefinition, AiError, isAiError } from './ai';
export type {
  AiProviderKind,
  AiProviderOptions,
  AiErrorCode,
  ChatCompletion,
  ChatMessage,
  ChatRequest,
  ChatTextPart,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
} from './ai';
