import type { ColumnType } from '../../../toolkit/schema/column-type';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { CollectionCustomizationContext } from '../../context/customization-context';

/**
 * A computed field (spec §2.6): `getValues` receives the deduplicated partial records (only the
 * dependencies, relations nested) once per request and returns one value per record, in order.
 *
 * @example
 * collection.addField('fullName', {
 *   columnType: 'String',
 *   dependencies: ['firstName', 'lastName'],
 *   getValues: (records) => records.map((r) => `${r.firstName} ${r.lastName}`),
 * });
 */
export interface ComputedDefinition {
  columnType: ColumnType;
  dependencies: string[];
  getValues(
    records: RecordData[],
    context: CollectionCustomizationContext,
  ): Promise<unknown[]> | unknown[] | Promise<unknown>[];
  defaultValue?: unknown;
  enumValues?: string[];
  /** For a `Number` field holding amounts of money: their currency (ISO 4217, `EUR`). */
  currency?: string;
}
