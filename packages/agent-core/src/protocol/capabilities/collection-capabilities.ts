import type { Collection } from '../../toolkit/interfaces/collection';
import { isPrimitiveType } from '../../toolkit/schema/column-type';

/** `IContains` → `i_contains`, `PreviousXDays` → `previous_x_days` (§11). */
export function toSnakeCase(operator: string): string {
  return operator.replace(/(?!^)([A-Z])/g, '_$1').toLowerCase();
}

/** One collection in the capabilities answer (§11). */
export function describeCollectionCapabilities(collection: Collection) {
  const fields: Record<string, unknown>[] = [];
  for (const [name, field] of Object.entries(collection.schema.fields)) {
    if (field.type === 'Column') {
      const type = field.columnType;
      const primitive = isPrimitiveType(type) || (Array.isArray(type) && isPrimitiveType(type[0]));
      if (!primitive) continue;
      fields.push({
        name,
        type,
        operators: [...field.filterOperators].map(toSnakeCase),
        isGroupable: field.isGroupable ?? true,
      });
    } else if (field.type === 'ManyToOne') {
      const key = collection.schema.fields[field.foreignKey];
      fields.push({
        name,
        type: 'ManyToOne',
        isGroupable: key?.type === 'Column' ? (key.isGroupable ?? true) : true,
      });
    }
  }
  const capabilities = collection.schema.aggregationCapabilities;
  return {
    name: collection.name,
    fields,
    ...(capabilities
      ? {
          aggregationCapabilities: {
            supportGroups:
              capabilities.supportGroups && fields.some((field) => field.isGroupable === true),
            supportedDateOperations: [...capabilities.supportedDateOperations],
          },
        }
      : {}),
  };
}
