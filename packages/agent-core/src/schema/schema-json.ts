/**
 * The shapes of the schema file `.canopy-schema.json` (platform protocol §13). Key order inside
 * each object is part of the format: generators build objects in the documented order.
 */

import type { ActionLayoutElement } from '@canopy/platform-protocol';

/** A field type: a primitive name, a one-element list, or a composite object. */
export type SchemaFieldType = string | [SchemaFieldType] | { fields: SchemaCompositeField[] };

/** One key of a composite field type. */
export interface SchemaCompositeField {
  field: string;
  type: SchemaFieldType;
  enums?: string[];
}

/** A validation rule as the front end reads it (`is present`, `is greater than`…). */
export interface SchemaValidation {
  message: string;
  type: string;
  value?: unknown;
}

/** A column or relation field (keys sorted alphabetically). */
export interface SchemaField {
  defaultValue: unknown;
  enums: string[] | null;
  field: string;
  integration: null;
  inverseOf: string | null;
  isFilterable: boolean;
  isPrimaryKey: boolean;
  isReadOnly: boolean;
  isRequired: boolean;
  isSortable: boolean;
  isVirtual: false;
  reference: string | null;
  relationship?: 'BelongsTo' | 'HasOne' | 'HasMany' | 'BelongsToMany';
  type: SchemaFieldType;
  validations: SchemaValidation[];
  /** A money field's currency (ISO 4217), when the agent declares one. */
  currency?: string;
}

/** A field of an action form. */
export interface SchemaActionField {
  field: string;
  label: string;
  description?: string;
  isRequired: boolean;
  isReadOnly: boolean;
  type: SchemaFieldType;
  hook?: 'changeHook' | null;
  reference?: string | null;
  enums?: string[] | null;
  widgetEdit?: { name: string; parameters: Record<string, unknown> } | null;
  defaultValue?: unknown;
}

/** A layout element of a static action form. */
export type SchemaLayoutElement = ActionLayoutElement;

/** An action (keys in the order of protocol §13.5). */
export interface SchemaAction {
  id: string;
  name: string;
  type: 'single' | 'bulk' | 'global';
  baseUrl: null;
  endpoint: string;
  httpMethod: 'POST';
  redirect: null;
  download: boolean;
  fields: SchemaActionField[];
  layout?: SchemaLayoutElement[];
  description?: string;
  submitButtonLabel?: string;
  hooks: { load: boolean; change: ['changeHook'] };
}

/** A code-defined segment. */
export interface SchemaSegment {
  id: string;
  name: string;
}

/** A collection (keys sorted alphabetically). */
export interface SchemaCollection {
  actions: SchemaAction[];
  fields: SchemaField[];
  icon: null;
  integration: null;
  isReadOnly: boolean;
  isSearchable: boolean;
  isVirtual: false;
  name: string;
  onlyForRelationships: false;
  paginationType: 'page';
  segments: SchemaSegment[];
}

/** `meta` of the schema file: which agent produced it. */
export interface SchemaMeta {
  liana: string;
  liana_version: string;
  liana_features: Record<string, string> | null;
  stack: { engine: 'nodejs'; engine_version: string };
}

/** The whole schema file. */
export interface AgentSchema {
  collections: SchemaCollection[];
  meta: SchemaMeta;
}
