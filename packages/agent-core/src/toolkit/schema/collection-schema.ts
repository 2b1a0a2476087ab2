import type { FieldSchema } from './field-schema';

/** Date buckets an aggregation may group by. */
export const DATE_OPERATIONS = ['Year', 'Quarter', 'Month', 'Week', 'Day'] as const;

/** One of {@link DATE_OPERATIONS}. */
export type DateOperation = (typeof DATE_OPERATIONS)[number];

/** Action scopes: one record, one or more records, or none in particular. */
export type ActionScope = 'Single' | 'Bulk' | 'Global';

/** How an action appears in a collection schema. */
export interface ActionSchema {
  scope: ActionScope;
  generateFile: boolean;
  /** True when the form has no dynamic part and can be published once. */
  staticForm: boolean;
  description?: string;
  submitButtonLabel?: string;
}

/** What aggregations a collection supports natively. */
export interface AggregationCapabilities {
  supportGroups: boolean;
  supportedDateOperations: Set<DateOperation>;
}

/**
 * The schema of one collection.
 *
 * @example
 * const schema: CollectionSchema = {
 *   fields: { id: { type: 'Column', columnType: 'Number', isPrimaryKey: true, filterOperators: new Set(['Equal', 'In']) } },
 *   actions: {}, charts: [], segments: [], countable: true, searchable: false,
 *   aggregationCapabilities: { supportGroups: true, supportedDateOperations: new Set(DATE_OPERATIONS) },
 * };
 */
export interface CollectionSchema {
  fields: Record<string, FieldSchema>;
  actions: Record<string, ActionSchema>;
  charts: string[];
  segments: string[];
  /** Whether list pagination may count records. */
  countable: boolean;
  /** Whether the collection handles `filter.search` natively. */
  searchable: boolean;
  aggregationCapabilities: AggregationCapabilities;
}

/** The schema of a data source: the names of its data-source-level charts. */
export interface DataSourceSchema {
  charts: string[];
}

/** A fresh, empty collection schema (what a new base collection starts with). */
export function createCollectionSchema(): CollectionSchema {
  return {
    fields: {},
    actions: {},
    charts: [],
    segments: [],
    countable: false,
    searchable: false,
    aggregationCapabilities: {
      supportGroups: true,
      supportedDateOperations: new Set(DATE_OPERATIONS),
    },
  };
}
