import type { Caller } from '../../../toolkit/caller';
import {
  BusinessError,
  ValidationError,
  isCanopyError,
} from '../../../toolkit/errors/canopy-error';
import type {
  ConditionTree,
  PlainConditionTree,
} from '../../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import { toConditionTree } from '../../../toolkit/query/condition-tree/to-condition-tree';
import type { Filter } from '../../../toolkit/query/filter';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import { getPrimaryKeys } from '../../../toolkit/schema/schema-utils';
import { validateConditionTree } from '../../../toolkit/validation/condition-tree-validator';
import { CollectionCustomizationContext } from '../../context/customization-context';
import { CollectionDecorator } from '../collection-decorator';

/** A segment: a condition tree, or a function of the context returning one. */
export type SegmentDefinition =
  | ConditionTree
  | PlainConditionTree
  | ((
      context: CollectionCustomizationContext,
    ) => ConditionTree | PlainConditionTree | Promise<ConditionTree | PlainConditionTree>);

/**
 * Layer 12 — segments. A filter naming a segment of this collection gets the segment's tree
 * (validated) intersected with its own; live-query segments run their SQL and restrict to the
 * returned primary keys.
 */
export class SegmentCollectionDecorator extends CollectionDecorator {
  private readonly segments = new Map<string, SegmentDefinition>();

  addSegment(name: string, definition: SegmentDefinition): void {
    this.segments.set(name, definition);
    this.markSchemaAsDirty();
  }

  /**
   * Checks every static segment against the finished schema, so a segment naming an unknown field
   * or an operator its field does not support fails when customizations are applied, not on first
   * use. (Segments computed by a function can only be checked when they run.)
   */
  validateStaticSegments(): void {
    for (const [name, definition] of this.segments) {
      if (typeof definition === 'function') continue;
      try {
        validateConditionTree(this, toConditionTree(definition));
      } catch (error) {
        throw new ValidationError(
          `Segment '${name}' of '${this.name}' is invalid: ${(error as Error).message}`,
          { cause: error, code: isCanopyError(error) ? error.code : undefined },
        );
      }
    }
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const segments = [
      ...childSchema.segments,
      ...[...this.segments.keys()].filter((n) => !childSchema.segments.includes(n)),
    ];
    return { ...childSchema, segments };
  }

  /** Only segments (named or live SQL) are refined here. */
  protected override keepsFilter(filter: Filter): boolean {
    return !filter.segment && !filter.liveQuerySegment;
  }

  protected override async refineFilter<F extends Filter | undefined>(
    caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter || this.keepsFilter(filter)) return filter;
    let { conditionTree } = filter;
    let segment = filter.segment;
    if (segment && this.segments.has(segment)) {
      const definition = this.segments.get(segment) as SegmentDefinition;
      const tree = toConditionTree(
        typeof definition === 'function'
          ? await definition(new CollectionCustomizationContext(this, caller))
          : definition,
      );
      validateConditionTree(this, tree);
      conditionTree = ConditionTreeFactory.intersect(conditionTree, tree);
      segment = null;
    }
    if (segment && !this.childCollection.schema.segments.includes(segment)) segment = null;
    if (filter.liveQuerySegment) {
      const { connectionName, query, contextVariables } = filter.liveQuerySegment;
      const pk = getPrimaryKeys(this.schema)[0] as string;
      let rows;
      try {
        // On the caller's transaction when it has one: a write's audit unit holds a connection.
        rows = await this.dataSource.executeNativeQuery(
          connectionName,
          query,
          contextVariables,
          caller,
        );
      } catch (error) {
        throw new BusinessError(
          `An error occurred during the execution of the segment query - ${(error as Error).message}`,
          { cause: error },
        );
      }
      const tree = new ConditionTreeLeaf(
        pk,
        'In',
        rows.map((row) => row[pk]),
      );
      validateConditionTree(this, tree);
      conditionTree = ConditionTreeFactory.intersect(conditionTree, tree);
    }
    return filter.override({ conditionTree, segment, liveQuerySegment: null }) as F;
  }
}
