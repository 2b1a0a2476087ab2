import type { Caller } from '../../../toolkit/caller';
import {
  getEquivalentOperators,
  rewriteTree,
} from '../../../toolkit/equivalence/operator-equivalence';
import type { Filter } from '../../../toolkit/query/filter';
import type { Operator } from '../../../toolkit/query/operators';
import type { ColumnType } from '../../../toolkit/schema/column-type';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { FieldSchema } from '../../../toolkit/schema/field-schema';
import { resolveColumnPath } from '../../../toolkit/validation/field-path';
import { CollectionDecorator } from '../collection-decorator';

const NO_OPERATORS: ReadonlySet<Operator> = new Set();

/**
 * Layers 14, 19, 22 — operator equivalences: advertises every operator derivable from the
 * child's operators (data-semantics §2.4) and rewrites leaves on the way down, in the caller's
 * time zone.
 */
export class EquivalenceCollectionDecorator extends CollectionDecorator {
  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const fields: Record<string, FieldSchema> = {};
    for (const [name, field] of Object.entries(childSchema.fields)) {
      fields[name] =
        field.type === 'Column' && field.filterOperators?.size
          ? {
              ...field,
              filterOperators: getEquivalentOperators(field.filterOperators, field.columnType),
            }
          : field;
    }
    return { ...childSchema, fields };
  }

  /** A filter whose operators are all native below is passed down as it is. */
  private keeps(filter: Filter): boolean {
    return (
      !filter.conditionTree ||
      filter.conditionTree.everyLeaf((leaf) => this.describe(leaf.field).native.has(leaf.operator))
    );
  }

  protected override async refineFilter<F extends Filter | undefined>(
    caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter?.conditionTree || this.keeps(filter)) return filter;
    const tree = rewriteTree(filter.conditionTree, (path) => this.describe(path), {
      timezone: caller.timezone,
    });
    return filter.override({ conditionTree: tree }) as F;
  }

  private describe(path: string): { native: ReadonlySet<Operator>; columnType: ColumnType } {
    const { schema } = resolveColumnPath(this.childCollection, path);
    return { native: schema.filterOperators ?? NO_OPERATORS, columnType: schema.columnType };
  }
}
