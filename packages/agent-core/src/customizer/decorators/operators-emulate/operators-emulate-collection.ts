import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import { compileLeaf } from '../../../toolkit/evaluator/match-leaf';
import type {
  ConditionTree,
  PlainConditionTree,
} from '../../../toolkit/query/condition-tree/condition-tree';
import type { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import { toConditionTree } from '../../../toolkit/query/condition-tree/to-condition-tree';
import type { Filter } from '../../../toolkit/query/filter';
import { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import { Projection } from '../../../toolkit/query/projection';
import type { Operator } from '../../../toolkit/query/operators';
import { getFieldValue } from '../../../toolkit/record/record-utils';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { ColumnSchema } from '../../../toolkit/schema/field-schema';
import { getColumn, getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import {
  allowedOperatorsForType,
  validateConditionTree,
} from '../../../toolkit/validation/condition-tree-validator';
import { describeColumnType } from '../../../toolkit/schema/column-type';
import { CollectionCustomizationContext } from '../../context/customization-context';
import { CollectionDecorator } from '../collection-decorator';
import type { DataSourceDecorator } from '../data-source-decorator';

/** Replaces an operator by a condition tree built from its value (or nothing: emulate it). */
export type OperatorReplacer = (
  value: unknown,
  context: CollectionCustomizationContext,
) =>
  | ConditionTree
  | PlainConditionTree
  | null
  | undefined
  | void
  | Promise<ConditionTree | PlainConditionTree | null | undefined | void>;

/**
 * Layers 15 and 20 — emulated and replaced operators. An emulated leaf lists every record of the
 * collection with the field and primary keys, matches in memory (caller's zone) and becomes a
 * primary-key match. A replaced leaf becomes the tree its handler returns, expanded recursively.
 */
export class OperatorsEmulateCollectionDecorator extends CollectionDecorator {
  declare readonly dataSource: DataSourceDecorator<OperatorsEmulateCollectionDecorator>;
  private readonly fields = new Map<string, Map<Operator, OperatorReplacer | null>>();

  /** Whether this layer handles `operator` on `field`. */
  handles(field: string, operator: Operator): boolean {
    return this.fields.get(field)?.has(operator) ?? false;
  }

  /** Emulates `operator` on `field` in memory. */
  emulateFieldOperator(field: string, operator: Operator): void {
    this.replaceFieldOperator(field, operator, null);
  }

  /** Replaces `operator` on `field` by the tree `replacer` returns (`null`: emulate). */
  replaceFieldOperator(field: string, operator: Operator, replacer: OperatorReplacer | null): void {
    const column = getColumn(this.name, this.childCollection.schema, field);
    if (!allowedOperatorsForType(column).has(operator)) {
      throw new ValidationError(
        `The operator '${operator}' is not supported by the column type of '${this.name}.${field}' (${describeColumnType(column.columnType)}). Allowed operators: [${[...allowedOperatorsForType(column)].join(', ')}].`,
      );
    }
    for (const pk of getPrimaryKeys(this.childCollection.schema)) {
      const pkColumn = this.childCollection.schema.fields[pk] as ColumnSchema;
      if (!pkColumn.filterOperators?.has('Equal') || !pkColumn.filterOperators.has('In')) {
        throw new ValidationError(
          `Cannot override operators on collection '${this.name}': the primary key columns must support 'Equal' and 'In' operators.`,
        );
      }
    }
    const operators = this.fields.get(field) ?? new Map();
    operators.set(operator, replacer);
    this.fields.set(field, operators);
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields = { ...childSchema.fields };
    for (const [name, operators] of this.fields) {
      const column = fields[name] as ColumnSchema;
      fields[name] = {
        ...column,
        filterOperators: new Set([...(column.filterOperators ?? []), ...operators.keys()]),
      };
    }
    return { ...childSchema, fields };
  }

  /** Whether a collection of this layer emulates or replaces an operator. */
  private get layerHandlesAnything(): boolean {
    return this.dataSource.fact('operators', (collections) =>
      collections.some((collection) => collection.fields.size > 0),
    );
  }

  /** A filter is kept when none of its leaves uses an operator handled by this layer. */
  protected override keepsFilter(filter: Filter): boolean {
    return (
      !filter.conditionTree ||
      !this.layerHandlesAnything ||
      !filter.conditionTree.someLeaf((leaf) => this.needsWork(leaf))
    );
  }

  protected override async refineFilter<F extends Filter | undefined>(
    caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter?.conditionTree || this.keepsFilter(filter)) return filter;
    const tree = await this.replaceTree(caller, filter.conditionTree, []);
    return filter.override({ conditionTree: tree }) as F;
  }

  private async replaceTree(
    caller: Caller,
    tree: ConditionTree,
    replacements: string[],
  ): Promise<ConditionTree | null> {
    return tree.replaceLeafsAsync((leaf) => this.replaceLeaf(caller, leaf, replacements));
  }

  private async replaceLeaf(
    caller: Caller,
    leaf: ConditionTreeLeaf,
    replacements: string[],
  ): Promise<ConditionTree | null> {
    const [head, ...rest] = leaf.field.split(':') as [string, ...string[]];
    if (rest.length > 0) {
      const relation = this.schema.fields[head];
      if (relation?.type !== 'ManyToOne' && relation?.type !== 'OneToOne') return leaf;
      const foreign = this.dataSource.getCollection(relation.foreignCollection);
      const subLeaf = leaf.override({ field: rest.join(':') });
      if (!foreign.needsWork(subLeaf)) return leaf;
      // Resolve the sub-condition on the foreign collection, then match its primary keys.
      const records = await foreign.list(
        caller,
        new PaginatedFilter({ conditionTree: subLeaf }),
        new Projection(...getPrimaryKeys(foreign.schema)),
      );
      return ConditionTreeFactory.matchRecords(foreign.schema, records).nest(head);
    }
    if (!this.handles(leaf.field, leaf.operator)) return leaf;

    const key = `${this.name}.${leaf.field}[${leaf.operator}]`;
    if (replacements.includes(key)) {
      throw new ValidationError(
        `Operator replacement cycle: ${[...replacements, key].join(' -> ')}`,
      );
    }
    const replacer = this.fields.get(leaf.field)?.get(leaf.operator);
    if (replacer) {
      const context = new CollectionCustomizationContext(this, caller);
      const replaced = toConditionTree((await replacer(leaf.value, context)) ?? null);
      if (replaced) {
        validateConditionTree(this, replaced);
        return this.replaceTree(caller, replaced, [...replacements, key]);
      }
    }
    return this.emulate(caller, leaf);
  }

  /** Whether a leaf (on this collection) needs this layer or the one of a related collection. */
  needsWork(leaf: ConditionTreeLeaf): boolean {
    const [head, ...rest] = leaf.field.split(':') as [string, ...string[]];
    if (rest.length === 0) return this.handles(head, leaf.operator);
    const relation = this.schema.fields[head];
    if (relation?.type !== 'ManyToOne' && relation?.type !== 'OneToOne') return false;
    return this.dataSource
      .getCollection(relation.foreignCollection)
      .needsWork(leaf.override({ field: rest.join(':') }));
  }

  private async emulate(caller: Caller, leaf: ConditionTreeLeaf): Promise<ConditionTree> {
    const pks = getPrimaryKeys(this.schema);
    const records = await this.readTarget.list(
      caller,
      new PaginatedFilter(),
      new Projection(...pks, leaf.field),
    );
    const column = this.schema.fields[leaf.field] as ColumnSchema;
    const predicate = compileLeaf(leaf.operator, leaf.value, column.columnType, {
      timezone: caller.timezone,
    });
    const matching = records.filter((record) => predicate(getFieldValue(record, leaf.field)));
    return ConditionTreeFactory.matchRecords(this.schema, matching);
  }
}
