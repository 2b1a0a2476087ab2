import type { ColumnSchema } from '@canopy/agent-core';
import { isComposite } from '../composite-type';
import type { FlattenedPath } from './flatten-column-options';

/** The column type a flattened path is exposed with (enum descriptors become `Enum`). */
export function exposedSchema(
  flattened: FlattenedPath,
): Pick<ColumnSchema, 'columnType' | 'enumValues'> {
  const { type } = flattened;
  if (typeof type === 'object' && !Array.isArray(type) && !isComposite(type)) {
    return { columnType: 'Enum', enumValues: type.enumValues };
  }
  return { columnType: type as ColumnSchema['columnType'] };
}
