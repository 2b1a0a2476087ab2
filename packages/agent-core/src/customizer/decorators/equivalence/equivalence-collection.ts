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

/** Field paths described per layer at most (a schema has far fewer filterable paths). */
const MAX_DESCRIBED = 1000;

interface FieldDescription {
  readonly native: ReadonlySet<Operator>;
  readonly columnType: ColumnType;
}

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
  protected override keepsFilter(filter: Filter): boolean {
    return (
      !filter.conditionTree ||
      filter.conditionTree.everyLeaf((leaf) => this.describe(leaf.field).native.has(leaf.operator))
    );
  }

  protected override async refineFilter<F extends Filter | undefined>(
    caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter?.conditionTree || this.keepsFilter(filter)) return filter;
    const tree = rewriteTree(filter.conditionTree, (path) => this.describe(path), {
      timezone: caller.timezone,
    });
    return filter.override({ conditionTree: tree }) as F;
  }

  /**
   * The native operators and type of a field path below this layer, found once per path and
   * schema version (every filtered request asks for the same few paths).
   */
  private describe(path: string): FieldDescription {
    const version = this.dataSource.clock.version;
    if (this.describedVersion !== version) {
      this.described.clear();
      this.describedVersion = version;
    }
    let description = this.described.get(path);
    if (!description) {
      const { schema } = resolveColumnPath(this.childCollection, path);
      description = {
        native: schema.filterOperators ?? NO_OPERATORS,
        columnType: schema.columnType,
      };
      if (this.described.size < MAX_DESCRIBED) this.described.set(path, description);
    }
    return description;
  }

  private readonly described = new Map<string, FieldDescription>();
  private describedVersion = -1;
}
