import type { FieldSchema } from '@canopy/agent-core/toolkit';
import type { IntrospectedColumn } from '../introspection/introspection';

/**
 * What the SQL layer knows about one collection: its table, its columns as introspected, the
 * primary key in use (declared or guessed) and the resulting fields.
 */
export interface TableModel {
  /** Collection name, equal to the table name. */
  name: string;
  isView: boolean;
  /** Columns by field name (field names are the column names). */
  columns: Map<string, IntrospectedColumn>;
  primaryKey: string[];
  fields: Record<string, FieldSchema>;
}
