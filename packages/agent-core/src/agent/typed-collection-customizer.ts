import type { CollectionCustomizer } from '../customizer/collection-customizer';
import type { ComputedDefinition } from '../customizer/decorators/computed/computed-definition';
import type { Operator } from '../toolkit/query/operators';
import type { SortClause } from '../toolkit/query/sort';
import type {
  HookHandler,
  HookPosition,
  HookType,
} from '../customizer/decorators/hook/hook-context';
import type { Plugin } from '../customizer/plugin';
import type { CollectionName, TypingsSchema } from './agent';

/** `T`'s methods returning `R`, so chained calls keep the typed customizer. */
type Chained<T, R> = {
  [K in keyof T]: T[K] extends (...args: infer A) => unknown ? (...args: A) => R : T[K];
};

/** A column of collection `N` in the generated typings (any string without typings). */
export type ColumnName<S extends TypingsSchema, N extends CollectionName<S>> = keyof S[N]['plain'] &
  string;

/** A column of `N` or a path through its to-one relations (`customer:email`). */
export type FieldPath<S extends TypingsSchema, N extends CollectionName<S>> =
  ColumnName<S, N> | (keyof S[N]['flat'] & string);

/** Methods redeclared below: generic ones, and those whose field-name arguments are narrowed. */
type RedeclaredMethods =
  | 'use'
  | 'addHook'
  | 'addField'
  | 'importField'
  | 'renameField'
  | 'removeField'
  | 'addFieldValidation'
  | 'setFieldNullable'
  | 'emulateFieldSorting'
  | 'replaceFieldSorting'
  | 'disableFieldSorting'
  | 'emulateFieldFiltering'
  | 'emulateFieldOperator';

/**
 * What `customizeCollection` hands to its callback: the plain {@link CollectionCustomizer} when
 * the agent has no generated typings (so helpers written against `CollectionCustomizer` fit), the
 * typed one when it was created with `createAgent<Schema>()`.
 */
export type CustomizerOf<
  S extends TypingsSchema,
  N extends CollectionName<S>,
> = string extends keyof S ? CollectionCustomizer : TypedCollectionCustomizer<S, N>;

/**
 * The collection customizer as `customizeCollection` hands it to code typed with the generated
 * `Schema` (`createAgent<Schema>()`): the same object, whose field-name arguments only accept the
 * collection's fields, so a misspelt field fails to compile. Without typings every name is a
 * string.
 *
 * @example
 * createAgent<Schema>().customizeCollection('orders', (orders) =>
 *   orders.addField('total', {
 *     columnType: 'Number',
 *     dependencies: ['amount', 'customer:email'], // checked against Schema['orders']
 *     getValues: (records) => records.map((record) => record.amount),
 *   }));
 */
export interface TypedCollectionCustomizer<
  S extends TypingsSchema,
  N extends CollectionName<S>,
> extends Chained<Omit<CollectionCustomizer, RedeclaredMethods>, TypedCollectionCustomizer<S, N>> {
  use<Options>(plugin: Plugin<Options>, options?: Options): TypedCollectionCustomizer<S, N>;
  addHook<P extends HookPosition, T extends HookType>(
    position: P,
    type: T,
    handler: HookHandler<P, T>,
    options?: { includeActionWrites?: boolean },
  ): TypedCollectionCustomizer<S, N>;
  addField(
    name: string,
    definition: Omit<ComputedDefinition, 'dependencies'> & { dependencies: FieldPath<S, N>[] },
  ): TypedCollectionCustomizer<S, N>;
  importField(
    name: string,
    options: { path: FieldPath<S, N>; readonly?: boolean },
  ): TypedCollectionCustomizer<S, N>;
  renameField(currentName: ColumnName<S, N>, newName: string): TypedCollectionCustomizer<S, N>;
  removeField(...names: ColumnName<S, N>[]): TypedCollectionCustomizer<S, N>;
  addFieldValidation(
    name: ColumnName<S, N>,
    operator: Operator,
    value?: unknown,
  ): TypedCollectionCustomizer<S, N>;
  setFieldNullable(name: ColumnName<S, N>): TypedCollectionCustomizer<S, N>;
  emulateFieldSorting(name: ColumnName<S, N>): TypedCollectionCustomizer<S, N>;
  replaceFieldSorting(
    name: ColumnName<S, N>,
    clauses: (SortClause & { field: FieldPath<S, N> })[],
  ): TypedCollectionCustomizer<S, N>;
  disableFieldSorting(name: ColumnName<S, N>): TypedCollectionCustomizer<S, N>;
  emulateFieldFiltering(name: ColumnName<S, N>): TypedCollectionCustomizer<S, N>;
  emulateFieldOperator(name: ColumnName<S, N>, operator: Operator): TypedCollectionCustomizer<S, N>;
}
