import { type ColumnType, isNestedEnum, type NestedEnumType } from '../toolkit/schema/column-type';
import type { SchemaCompositeField, SchemaFieldType } from './schema-json';

/**
 * Encodes a column type as the schema file does (protocol §13.4): `String`, `["String"]`, or
 * `{"fields": [{"field": "street", "type": "String"}, ...]}` for composite types.
 */
export function encodeColumnType(type: ColumnType | NestedEnumType): SchemaFieldType {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return [encodeColumnType(type[0])];
  if (isNestedEnum(type)) return 'Enum';
  return {
    fields: Object.entries(type).map(([field, sub]): SchemaCompositeField => {
      const encoded: SchemaCompositeField = { field, type: encodeColumnType(sub) };
      if (isNestedEnum(sub)) encoded.enums = [...sub.enumValues];
      return encoded;
    }),
  };
}
