import type { Operator } from '../query/operators';
import type { ColumnType } from './column-type';

/** One validation rule of a column: `{ operator: 'LongerThan', value: 3 }`. */
export interface ValidationRule {
  operator: Operator;
  value?: unknown;
}

/**
 * A column of a collection.
 *
 * @example
 * const price: ColumnSchema = {
 *   type: 'Column',
 *   columnType: 'Number',
 *   filterOperators: new Set(['Equal', 'In', 'LessThan', 'GreaterThan']),
 *   isSortable: true,
 * };
 */
export interface ColumnSchema {
  type: 'Column';
  columnType: ColumnType;
  /** Operators accepted on this field in condition trees; empty means not filterable. */
  filterOperators: Set<Operator>;
  /** Part of the (possibly composite) primary key, in field order. */
  isPrimaryKey?: boolean;
  /** Cannot be written by users (auto-increment keys, computed fields, view columns). */
  isReadOnly?: boolean;
  /** May appear in a sort. */
  isSortable?: boolean;
  /** May be used as an aggregation group (treated as `true` when absent). */
  isGroupable?: boolean;
  /** Nullability hint. */
  allowNull?: boolean;
  /** Default shown in creation forms (plain values only). */
  defaultValue?: unknown;
  /**
   * For a `Json` column whose data source can filter on the values inside it: the operators it
   * accepts on a key path into the column (`address:country`, `geo:lat`), which compare the value
   * found there (a missing key or a JSON `null` is "missing"). Absent or empty: only the whole
   * column can be filtered. `flattenJsonColumn` makes the flattened fields filterable with them.
   */
  jsonKeyOperators?: Set<Operator>;
  /** Allowed values for `Enum` and `['Enum']` columns. */
  enumValues?: string[];
  /**
   * For a `Number` column holding amounts of money: their currency (ISO 4217, `EUR`). The schema
   * file carries it so a front end shows the amounts with their currency.
   */
  currency?: string;
  /** Rules used by the UI and enforced by `addFieldValidation`. */
  validation?: ValidationRule[];
  /**
   * For a `Number` column stored as an integer: the inclusive range of its storage type, as
   * decimal texts (`['-2147483648', '2147483647']` for a PostgreSQL `integer`). A value outside
   * it cannot be stored, so an id outside it names no record (404 before any query) and a filter
   * value outside it is refused. Absent: any finite number.
   */
  integerRange?: readonly [min: string, max: string];
  /**
   * For a `String` column: the most characters its storage type holds (`varchar(50)` → 50). A
   * longer value is refused on every write, before the data source sees it, and the schema file
   * gives the front end the same limit as an `is shorter than` validation. Absent: no limit.
   */
  maxLength?: number;
}

/**
 * `books.author → authors`: the foreign key lives on this collection.
 *
 * @example
 * const author: ManyToOneSchema = {
 *   type: 'ManyToOne', foreignCollection: 'authors', foreignKey: 'authorId', foreignKeyTarget: 'id',
 * };
 */
export interface ManyToOneSchema {
  type: 'ManyToOne';
  foreignCollection: string;
  /** Column of this collection. */
  foreignKey: string;
  /** Column of the foreign collection, usually its primary key. */
  foreignKeyTarget: string;
}

/** `authors.books → books`: the key pointing back lives on the foreign collection. */
export interface OneToManySchema {
  type: 'OneToMany';
  foreignCollection: string;
  /** Column of the foreign collection pointing to this one. */
  originKey: string;
  /** Column of this collection, usually its primary key. */
  originKeyTarget: string;
}

/** `users.profile → profiles`: like OneToMany, with at most one foreign record. */
export interface OneToOneSchema {
  type: 'OneToOne';
  foreignCollection: string;
  originKey: string;
  originKeyTarget: string;
}

/** `books.tags` through `bookTags(bookId, tagId)`. */
export interface ManyToManySchema {
  type: 'ManyToMany';
  foreignCollection: string;
  throughCollection: string;
  /** Column of the through collection pointing to this one. */
  originKey: string;
  /** Column of this collection. */
  originKeyTarget: string;
  /** Column of the through collection pointing to the foreign one. */
  foreignKey: string;
  /** Column of the foreign collection. */
  foreignKeyTarget: string;
}

/** Any relation schema. */
export type RelationSchema = ManyToOneSchema | OneToManySchema | OneToOneSchema | ManyToManySchema;

/** Any field of a collection: a column or a relation. */
export type FieldSchema = ColumnSchema | RelationSchema;

/** The relation types that may appear inside `relation:field` paths. */
export type ToOneRelationSchema = ManyToOneSchema | OneToOneSchema;
