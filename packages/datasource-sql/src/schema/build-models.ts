import { compareNames } from '@canopy/agent-core/toolkit';
import type { ColumnSchema, FieldSchema, RelationSchema } from '@canopy/agent-core/toolkit';
import type {
  IntrospectedColumn,
  IntrospectedTable,
  SqlIntrospection,
} from '../introspection/introspection';
import { columnTypeOf, enumValuesOf } from './column-type-of';
import { integerRangeOf } from './integer-range';
import { jsonKeyOperators, nativeOperators } from './native-operators';
import { maxLengthOf } from './text-length';
import { plural, singular, stripKeySuffix } from './relation-names';
import type { TableModel } from './table-model';

interface PendingRelation {
  simpleName: string;
  longName: string;
  schema: RelationSchema;
}

/**
 * The primary key in use: the declared one, else (tables) a column named `id`, the shortest
 * unique constraint, or both columns of a two-column table whose columns are both foreign keys;
 * views use their first column.
 */
function choosePrimaryKey(table: IntrospectedTable, isView: boolean, warnings: string[]): string[] {
  if (table.primaryKey.length > 0) return table.primaryKey;
  const first = table.columns[0]?.name;
  if (isView) return first ? [first] : [];
  const id = table.columns.find((column) => column.name.toLowerCase() === 'id');
  let guess: string[] = [];
  if (id) guess = [id.name];
  else if (table.uniques.length > 0) {
    guess = [...table.uniques].sort((a, b) => a.length - b.length)[0] ?? [];
  } else if (
    table.columns.length === 2 &&
    table.columns.every((column) => table.foreignKeys.some((key) => key.column === column.name))
  ) {
    guess = table.columns.map((column) => column.name);
  }
  warnings.push(
    guess.length > 0
      ? `Table "${table.name}" has no primary key. Using "${guess.join('", "')}".`
      : `Table "${table.name}" has no primary key and none can be guessed: ` +
          'records cannot be identified, so reading one record, updating and deleting will fail.',
  );
  return guess;
}

function columnSchema(
  column: IntrospectedColumn,
  model: { primaryKey: string[]; isView: boolean },
  dialect: SqlIntrospection['dialect'],
): ColumnSchema {
  const isPrimaryKey = model.primaryKey.includes(column.name);
  const isReadOnly = model.isView || column.autoIncrement;
  const schema: ColumnSchema = {
    type: 'Column',
    columnType: columnTypeOf(column.type),
    filterOperators: nativeOperators(column.type, dialect),
    isPrimaryKey,
    isReadOnly,
    isSortable: column.type.kind !== 'array' && !['json', 'point'].includes(scalarOf(column)),
    isGroupable: !['json', 'point', 'binary'].includes(scalarOf(column)),
    allowNull: column.allowNull,
  };
  const enumValues = enumValuesOf(column.type);
  if (enumValues) schema.enumValues = enumValues;
  const keyOperators = jsonKeyOperators(column.type, dialect);
  if (keyOperators) schema.jsonKeyOperators = keyOperators;
  const integerRange = integerRangeOf(column, dialect);
  if (integerRange) schema.integerRange = integerRange;
  const maxLength = maxLengthOf(column);
  if (maxLength !== undefined) schema.maxLength = maxLength;
  if (column.defaultValue?.kind === 'literal') schema.defaultValue = column.defaultValue.value;
  if (!column.allowNull && !isReadOnly && column.defaultValue === undefined) {
    schema.validation = [{ operator: 'Present' }];
  }
  return schema;
}

function scalarOf(column: IntrospectedColumn): string {
  return column.type.kind === 'scalar' ? column.type.scalar : column.type.kind;
}

function isJunction(table: IntrospectedTable): boolean {
  if (table.primaryKey.length !== 2) return false;
  return table.primaryKey.every(
    (column) => table.foreignKeys.filter((key) => key.column === column).length === 1,
  );
}

function isUniqueAlone(table: IntrospectedTable, column: string): boolean {
  return table.uniques.some((unique) => unique.length === 1 && unique[0] === column);
}

/** Builds the relations of every table from foreign keys, with the naming rules of §4.4. */
function buildRelations(
  tables: IntrospectedTable[],
  primaryKeys: Map<string, string[]>,
): Map<string, PendingRelation[]> {
  const relations = new Map<string, PendingRelation[]>(tables.map((table) => [table.name, []]));
  const add = (table: string, relation: PendingRelation) => relations.get(table)?.push(relation);

  for (const table of tables) {
    const junction = isJunction(table);
    for (const key of table.foreignKeys) {
      const stripped = stripKeySuffix(key.column);
      add(table.name, {
        simpleName: singular(stripped ?? key.foreignTable),
        longName: `${singular(key.foreignTable)}_through_${key.column}`,
        schema: {
          type: 'ManyToOne',
          foreignCollection: key.foreignTable,
          foreignKey: key.column,
          foreignKeyTarget: key.foreignColumn,
        },
      });
      if (junction) continue;
      const oneToOne = isUniqueAlone(table, key.column);
      add(key.foreignTable, {
        simpleName: oneToOne ? singular(table.name) : plural(table.name),
        longName: `${oneToOne ? singular(table.name) : plural(table.name)}_through_${key.foreignTable}_${key.column}`,
        schema: {
          type: oneToOne ? 'OneToOne' : 'OneToMany',
          foreignCollection: table.name,
          originKey: key.column,
          originKeyTarget: key.foreignColumn,
        },
      });
    }
    if (junction) {
      const [a, b] = table.primaryKey.map((column) =>
        table.foreignKeys.find((key) => key.column === column)!,
      );
      if (!a || !b || !primaryKeys.has(a.foreignTable) || !primaryKeys.has(b.foreignTable)) {
        continue;
      }
      for (const [origin, foreign] of [
        [a, b],
        [b, a],
      ] as const) {
        add(origin.foreignTable, {
          simpleName: plural(stripKeySuffix(foreign.column) ?? foreign.foreignTable),
          longName: `${plural(foreign.foreignTable)}_through_${table.name}`,
          schema: {
            type: 'ManyToMany',
            foreignCollection: foreign.foreignTable,
            throughCollection: table.name,
            originKey: origin.column,
            originKeyTarget: origin.foreignColumn,
            foreignKey: foreign.column,
            foreignKeyTarget: foreign.foreignColumn,
          },
        });
      }
    }
  }
  return relations;
}

function nameRelations(
  table: IntrospectedTable,
  pending: PendingRelation[],
  throughTables: Set<string>,
): Record<string, RelationSchema> {
  const columnNames = new Set(table.columns.map((column) => column.name));
  const counts = new Map<string, number>();
  for (const relation of pending) {
    counts.set(relation.simpleName, (counts.get(relation.simpleName) ?? 0) + 1);
  }
  const named: Record<string, RelationSchema> = {};
  for (const relation of pending) {
    const simple = relation.simpleName;
    const collides =
      (counts.get(simple) ?? 0) > 1 ||
      columnNames.has(simple) ||
      simple === table.name ||
      throughTables.has(simple);
    let name = collides ? relation.longName : simple;
    // Long names can still meet (two junctions between the same tables): number them.
    for (let index = 2; name in named || columnNames.has(name); index += 1) {
      name = `${collides ? relation.longName : simple}_${index}`;
    }
    named[name] = relation.schema;
  }
  return named;
}

/**
 * knex reads a dot inside an identifier as a qualifier (`a.b` → `"a"."b"`), so tables and
 * columns whose name contains one cannot be queried safely: they are left out with a warning,
 * with the keys and foreign keys that mention them.
 */
function withoutDottedNames(introspection: SqlIntrospection, warnings: string[]): SqlIntrospection {
  const dotted = (name: string) => name.includes('.');
  const keep = (table: IntrospectedTable): IntrospectedTable | undefined => {
    if (dotted(table.name)) {
      warnings.push(`Skipping table "${table.name}": names containing '.' are not supported.`);
      return undefined;
    }
    const skipped = table.columns.filter((column) => dotted(column.name)).map((c) => c.name);
    for (const name of skipped) {
      warnings.push(
        `Skipping column ${table.name}.${name}: names containing '.' are not supported.`,
      );
    }
    if (skipped.length === 0) return table;
    return {
      ...table,
      columns: table.columns.filter((column) => !dotted(column.name)),
      primaryKey: table.primaryKey.some(dotted) ? [] : table.primaryKey,
      uniques: table.uniques.filter((unique) => !unique.some(dotted)),
      foreignKeys: table.foreignKeys.filter((key) => !dotted(key.column)),
    };
  };
  const tables = introspection.tables.flatMap((table) => keep(table) ?? []);
  const names = new Set(tables.map((table) => table.name));
  return {
    ...introspection,
    tables: tables.map((table) => ({
      ...table,
      foreignKeys: table.foreignKeys.filter(
        (key) => names.has(key.foreignTable) && !dotted(key.foreignColumn),
      ),
    })),
    views: introspection.views.flatMap((view) => keep(view) ?? []),
  };
}

/**
 * Turns an introspection into one model per table and view: column fields with their native
 * operators, the primary key in use, and the relations derived from foreign keys.
 */
export function buildModels(source: SqlIntrospection): {
  models: Map<string, TableModel>;
  warnings: string[];
} {
  const warnings: string[] = [];
  const introspection = withoutDottedNames(source, warnings);
  const models = new Map<string, TableModel>();
  const primaryKeys = new Map<string, string[]>();
  for (const table of introspection.tables) {
    primaryKeys.set(table.name, choosePrimaryKey(table, false, warnings));
  }
  const pending = buildRelations(introspection.tables, primaryKeys);
  const throughTables = new Set(
    [...pending.values()]
      .flat()
      .flatMap((relation) =>
        relation.schema.type === 'ManyToMany' ? [relation.schema.throughCollection] : [],
      ),
  );

  const entries: Array<[IntrospectedTable, boolean]> = [
    ...introspection.tables.map((table): [IntrospectedTable, boolean] => [table, false]),
    ...introspection.views.map((table): [IntrospectedTable, boolean] => [table, true]),
  ];
  for (const [table, isView] of entries.sort((a, b) => compareNames(a[0].name, b[0].name))) {
    const primaryKey = isView
      ? choosePrimaryKey(table, true, warnings)
      : (primaryKeys.get(table.name) ?? []);
    const fields: Record<string, FieldSchema> = {};
    for (const column of table.columns) {
      fields[column.name] = columnSchema(column, { primaryKey, isView }, introspection.dialect);
    }
    if (!isView) {
      Object.assign(fields, nameRelations(table, pending.get(table.name) ?? [], throughTables));
    }
    models.set(table.name, {
      name: table.name,
      isView,
      columns: new Map(table.columns.map((column) => [column.name, column])),
      primaryKey,
      fields,
    });
  }
  return { models, warnings };
}
