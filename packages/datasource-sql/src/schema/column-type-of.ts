import type { ColumnType } from '@canopy/agent-core/toolkit';
import type { IntrospectedType } from '../introspection/introspection';

/** The data model's column type for an introspected type (see {@link ScalarKind}). */
export function columnTypeOf(type: IntrospectedType): ColumnType {
  if (type.kind === 'array') return [columnTypeOf(type.item)];
  if (type.kind === 'enum') return 'Enum';
  switch (type.scalar) {
    case 'boolean':
      return 'Boolean';
    case 'integer':
    case 'bigint':
    case 'decimal':
    case 'float':
      return 'Number';
    case 'timestamp':
      return 'Date';
    case 'date':
      return 'Dateonly';
    case 'time':
      return 'Time';
    case 'uuid':
      return 'Uuid';
    case 'json':
      return 'Json';
    case 'binary':
      return 'Binary';
    case 'point':
      return 'Point';
    default:
      return 'String';
  }
}

/** Enum labels of an enum or enum-array type. */
export function enumValuesOf(type: IntrospectedType): string[] | undefined {
  if (type.kind === 'enum') return [...type.values];
  if (type.kind === 'array') return enumValuesOf(type.item);
  return undefined;
}
