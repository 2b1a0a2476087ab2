// `@canopy/agent-core/toolkit`: what a data source or plugin author builds on: the data model
// (schemas, `Collection`, `DataSource`, their base classes), queries and operators, the errors,
// the validators (with the validated marks the layers below trust), the in-memory evaluator and
// data source, and the operator rewrites. An application customizing its agent needs only the
// main entry, `@canopy/agent-core`.

// Toolkit: schemas
export {
  PRIMITIVE_TYPES,
  isPrimitiveType,
  isArrayType,
  isNestedEnum,
  describeColumnType,
  type PrimitiveType,
  type ColumnType,
  type CompositeColumnType,
  type NestedEnumType,
} from './schema/column-type';
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
} from './schema/field-schema';
export {
  DATE_OPERATIONS,
  createCollectionSchema,
  type DateOperation,
  type ActionScope,
  type ActionSchema,
  type AggregationCapabilities,
  type CollectionSchema,
  type DataSourceSchema,
} from './schema/collection-schema';
export {
  getPrimaryKeys,
  getColumnNames,
  getField,
  getColumn,
  getRelation,
} from './schema/schema-utils';

// Toolkit: callers, records, errors
export { callerIdentity } from './caller';
export type { Caller, CallerIdentity, CallerTransaction, PermissionLevel } from './caller';
export {
  getPrimaryKey,
  getFieldValue,
  unflattenRecord,
  packId,
  unpackId,
  type RecordData,
  type CompositeId,
} from './record/record-utils';
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
} from './errors/canopy-error';
export {
  MissingCollectionError,
  MissingFieldError,
  MissingColumnError,
  MissingRelationError,
  AlreadyDefinedFieldError,
  RelationFieldAccessDeniedError,
  UnexpectedFieldTypeError,
} from './errors/schema-errors';

// Toolkit: queries
export {
  OPERATORS,
  MINIMAL_OPERATORS,
  VALUELESS_OPERATORS,
  NUMBER_VALUED_OPERATORS,
  ARRAY_VALUED_OPERATORS,
  INTERVAL_OPERATORS,
  PRESENCE_OPERATORS,
  ORDERING_OPERATORS,
  TEXT_MATCH_OPERATORS,
  STRING_OPERATORS,
  DATE_OPERATORS,
  OPERATORS_BY_TYPE,
  ARRAY_COLUMN_OPERATORS,
  isOperator,
  type Operator,
} from './query/operators';
export {
  ConditionTree,
  type Aggregator,
  type PlainConditionTree,
  type PlainConditionTreeLeaf,
  type PlainConditionTreeBranch,
} from './query/condition-tree/condition-tree';
export { ConditionTreeLeaf } from './query/condition-tree/condition-tree-leaf';
export { ConditionTreeBranch } from './query/condition-tree/condition-tree-branch';
export { ConditionTreeFactory } from './query/condition-tree/condition-tree-factory';
export { Filter, type FilterComponents, type LiveQuerySegment } from './query/filter';
export { PaginatedFilter, type PaginatedFilterComponents } from './query/paginated-filter';
export { Sort, type SortClause } from './query/sort';
export { Page } from './query/page';
export { Projection } from './query/projection';
export {
  Aggregation,
  type AggregationOperation,
  type AggregationGroup,
  type AggregationComponents,
  type AggregateResult,
} from './query/aggregation';

// Toolkit: collections and data sources
export type { Collection } from './interfaces/collection';
export type { DataSource, DataSourceFactory } from './interfaces/data-source';
export type { Logger, LoggerLevel } from './interfaces/logger';
export { BaseCollection } from './base/base-collection';
export { BaseDataSource } from './base/base-data-source';

// Toolkit: action, form and chart results
export type {
  ActionResult,
  SuccessActionResult,
  ErrorActionResult,
  WebhookActionResult,
  FileActionResult,
  RedirectActionResult,
} from './action/action-result';
export {
  ACTION_FIELD_TYPES,
  type ActionFieldType,
  type ActionFieldWidget,
  type ActionFieldOption,
  type ActionField,
  type ActionLayoutElement,
  type ActionFormElement,
  type GetFormMetas,
} from './action/action-form';
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
} from './chart/chart';

// Toolkit: in-memory evaluation (used by every emulation, usable by data sources)
export { type EvaluationContext, toDateTime } from './evaluator/time-zone';
export { isCanonicalTimeZone } from './time-zone-names';
export { compareNames } from './compare-names';
export { getPeriod, type Period, type PeriodOperator } from './evaluator/date-periods';
export { compileLeaf, matchLeaf, type ValuePredicate } from './evaluator/match-leaf';
export {
  compileTree,
  matchRecord,
  filterRecords,
  type ColumnTypeResolver,
  type RecordPredicate,
} from './evaluator/match-record';
export { sortRecords } from './evaluator/sort-records';
export { aggregateRecords } from './evaluator/aggregate-records';
export { dateBucket } from './evaluator/date-buckets';
export { escapeLike, likeToRegExp, toRegExp } from './evaluator/patterns';

// Toolkit: operator equivalences
export {
  getEquivalentOperators,
  rewriteLeaf,
  rewriteTree,
} from './equivalence/operator-equivalence';

// Toolkit: validation
export {
  resolveColumnPath,
  columnTypeResolver,
  validateFieldName,
  type ResolvedColumn,
} from './validation/field-path';
export { validateValue, validateWrittenValue } from './validation/value-validator';
export {
  validateConditionTree,
  validateConditionTreeOnce,
  validateLeafValue,
  allowedOperatorsForType,
} from './validation/condition-tree-validator';
export {
  validateProjection,
  validateSort,
  validateSortOnce,
  validateAggregation,
} from './validation/query-validators';
export { validateRecord } from './validation/record-validator';
export { isValidated, markValidated } from './validation/validated';

// Toolkit: in-memory data source
export {
  InMemoryCollection,
  type InMemoryCollectionDefinition,
  type InMemoryColumn,
} from './in-memory/in-memory-collection';
export { InMemoryDataSource, createInMemoryDataSource } from './in-memory/in-memory-data-source';

// Search: the query parser and the tree a search becomes
export { parseSearch, type SearchToken } from './search/search-query';
export { buildSearchTree, type SearchField } from './search/search-tree';
