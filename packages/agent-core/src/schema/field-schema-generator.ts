import { compareNames } from '../toolkit/compare-names';
import { MissingColumnError } from '../toolkit/errors/schema-errors';
import type { Collection } from '../toolkit/interfaces/collection';
import type {
  ColumnSchema,
  FieldSchema,
  ManyToManySchema,
  ManyToOneSchema,
  OneToManySchema,
  OneToOneSchema,
  RelationSchema,
} from '../toolkit/schema/field-schema';
import { encodeColumnType } from './column-type-encoding';
import type { SchemaField, SchemaFieldType } from './schema-json';
import { encodeValidations } from './validation-encoding';

/**
 * The schema-file fields of a collection (protocol §13.4), sorted by name. Foreign-key columns
 * are left out (their many-to-one relation edits them) unless they are part of the primary key.
 */
export function generateFields(collection: Collection): SchemaField[] {
  const fields = collection.schema.fields;
  const foreignKeys = new Set(
    Object.values(fields)
      .filter((field): field is ManyToOneSchema => field.type === 'ManyToOne')
      .map((relation) => relation.foreignKey),
  );
  return Object.entries(fields)
    .filter(([name, field]) => {
      if (field.type !== 'Column') return true;
      return !foreignKeys.has(name) || field.isPrimaryKey === true;
    })
    .sort(([a], [b]) => compareNames(a, b))
    .map(([name, field]) =>
      field.type === 'Column'
        ? columnField(name, field, foreignKeys.has(name))
        : relationField(collection, name, field),
    );
}

function columnField(name: string, column: ColumnSchema, isForeignKey: boolean): SchemaField {
  const isEnum = column.columnType === 'Enum' || isEnumList(column);
  return {
    defaultValue: column.defaultValue ?? null,
    enums: isEnum ? [...(column.enumValues ?? [])].sort() : [],
    field: name,
    integration: null,
    inverseOf: null,
    isFilterable: column.filterOperators.size > 0,
    isPrimaryKey: column.isPrimaryKey === true,
    isReadOnly: column.isReadOnly === true || isForeignKey,
    isRequired: (column.validation ?? []).some((rule) => rule.operator === 'Present'),
    isSortable: column.isSortable === true,
    isVirtual: false,
    reference: null,
    type: encodeColumnType(column.columnType),
    validations: encodeValidations(withLengthLimit(column)),
    ...(column.currency ? { currency: column.currency } : {}),
  };
}

/** The column's rules, plus its storage's length limit as the rule a front end enforces. */
function withLengthLimit(column: ColumnSchema): ColumnSchema['validation'] {
  if (column.maxLength === undefined) return column.validation;
  return [...(column.validation ?? []), { operator: 'ShorterThan', value: column.maxLength + 1 }];
}

function isEnumList(column: ColumnSchema): boolean {
  return Array.isArray(column.columnType) && column.columnType[0] === 'Enum';
}

function relationField(
  collection: Collection,
  name: string,
  relation: RelationSchema,
): SchemaField {
  const target = collection.dataSource.getCollection(relation.foreignCollection);
  const base = {
    defaultValue: null as unknown,
    enums: null,
    field: name,
    integration: null,
    inverseOf: inverseOf(collection, relation),
    isFilterable: false,
    isPrimaryKey: false,
    isReadOnly: false,
    isRequired: false,
    isSortable: false,
    isVirtual: false as const,
    reference: null as string | null,
  };
  switch (relation.type) {
    case 'ManyToOne': {
      const key = column(collection, relation.foreignKey);
      return finish(base, {
        defaultValue: key.defaultValue ?? null,
        isFilterable: isFilterable(target),
        isReadOnly: key.isReadOnly === true,
        isRequired: (key.validation ?? []).some((rule) => rule.operator === 'Present'),
        isSortable: key.isSortable === true,
        reference: `${target.name}.${relation.foreignKeyTarget}`,
        relationship: 'BelongsTo',
        type: encodeColumnType(key.columnType),
        validations: encodeValidations(key.validation),
      });
    }
    case 'OneToOne': {
      const originKey = column(target, relation.originKey);
      return finish(base, {
        isFilterable: isFilterable(target),
        isReadOnly: originKey.isReadOnly === true,
        isSortable: column(collection, relation.originKeyTarget).isSortable === true,
        reference: `${target.name}.${relation.originKeyTarget}`,
        relationship: 'HasOne',
        type: encodeColumnType(originKey.columnType),
        validations: [],
      });
    }
    case 'OneToMany':
      return finish(base, {
        isReadOnly: column(target, relation.originKey).isReadOnly === true,
        isSortable: true,
        reference: `${target.name}.${relation.originKeyTarget}`,
        relationship: 'HasMany',
        type: [encodeColumnType(column(collection, relation.originKeyTarget).columnType)],
        validations: [],
      });
    case 'ManyToMany': {
      const through = collection.dataSource.getCollection(relation.throughCollection);
      return finish(base, {
        isReadOnly:
          column(through, relation.originKey).isReadOnly === true ||
          column(through, relation.foreignKey).isReadOnly === true,
        isSortable: true,
        reference: `${target.name}.${relation.foreignKeyTarget}`,
        relationship: 'BelongsToMany',
        type: [encodeColumnType(column(target, relation.foreignKeyTarget).columnType)],
        validations: [],
      });
    }
  }
}

/** Rebuilds the field with its keys in alphabetical order. */
function finish(
  base: Omit<SchemaField, 'type' | 'validations'>,
  overrides: Partial<SchemaField> & {
    type: SchemaFieldType;
    validations: SchemaField['validations'];
  },
): SchemaField {
  const merged = { ...base, ...overrides } as SchemaField;
  return Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((key) => [key, merged[key as keyof SchemaField]]),
  ) as unknown as SchemaField;
}

function column(collection: Collection, name: string): ColumnSchema {
  const field: FieldSchema | undefined = collection.schema.fields[name];
  if (!field || field.type !== 'Column') {
    throw new MissingColumnError(collection.name, name, Object.keys(collection.schema.fields));
  }
  return field;
}

function isFilterable(collection: Collection): boolean {
  return Object.values(collection.schema.fields).some(
    (field) => field.type === 'Column' && field.filterOperators.size > 0,
  );
}

function inverseOf(collection: Collection, relation: RelationSchema): string | null {
  const target = collection.dataSource.getCollection(relation.foreignCollection);
  const found = Object.entries(target.schema.fields).find(([, candidate]) => {
    if (candidate.type === 'Column' || candidate.foreignCollection !== collection.name)
      return false;
    return isInverse(relation, candidate);
  });
  return found?.[0] ?? null;
}

function isInverse(relation: RelationSchema, candidate: RelationSchema): boolean {
  switch (relation.type) {
    case 'ManyToOne':
      return (
        (candidate.type === 'OneToMany' || candidate.type === 'OneToOne') &&
        candidate.originKey === relation.foreignKey &&
        candidate.originKeyTarget === relation.foreignKeyTarget
      );
    case 'OneToMany':
    case 'OneToOne':
      return (
        candidate.type === 'ManyToOne' &&
        candidate.foreignKey === (relation as OneToManySchema | OneToOneSchema).originKey &&
        candidate.foreignKeyTarget === relation.originKeyTarget
      );
    case 'ManyToMany': {
      const other = candidate as ManyToManySchema;
      return (
        candidate.type === 'ManyToMany' &&
        other.throughCollection === relation.throughCollection &&
        other.originKey === relation.foreignKey &&
        other.foreignKey === relation.originKey
      );
    }
  }
}
