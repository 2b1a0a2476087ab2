import type { Caller } from '../../../toolkit/caller';
import type { ConditionTreeLeaf } from '../../../toolkit/query/condition-tree/condition-tree-leaf';
import type { Filter } from '../../../toolkit/query/filter';
import type { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import type { ManyToOneSchema } from '../../../toolkit/schema/field-schema';
import { CollectionDecorator } from '../collection-decorator';

/** Distinct projections planned per collection at most (the oldest is dropped first). */
const MAX_PLANS = 500;

/** How a projection is read below this layer (see `planOf`). */
interface ProjectionPlan {
  readonly version: number;
  /** Relations read from a foreign key: `{ [relation]: { [target]: record[foreignKey] } }`. */
  readonly replaced: readonly { relation: string; target: string; foreignKey: string }[];
  readonly childProjection: Projection;
}

/**
 * Layer 17 — lazy joins: reading or filtering only the target key of a ManyToOne relation
 * (`author:id` when the foreign key targets `id`) uses the foreign key of this collection
 * instead, so no join or related query is needed.
 */
export class LazyJoinCollectionDecorator extends CollectionDecorator {
  /** The ManyToOne relation whose target key `path` is, when it can be read from the foreign key. */
  private avoidable(path: string, projection?: Projection): ManyToOneSchema | null {
    if (!path.includes(':')) return null;
    const [relation, target, ...rest] = path.split(':');
    if (!relation || !target || rest.length > 0) return null;
    const field = this.childCollection.schema.fields[relation];
    if (field?.type !== 'ManyToOne' || field.foreignKeyTarget !== target) return null;
    // Only when nothing else of the relation is read: otherwise the join happens anyway.
    if (projection && !projection.every((p) => !p.startsWith(`${relation}:`) || p === path))
      return null;
    return field;
  }

  /** Lists go straight down when the filter stays and no relation can be read from a foreign key. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const plan = this.planOf(projection);
    if (this.keepsFilter(filter) && plan.replaced.length === 0) {
      return this.readTarget.list(caller, filter, projection);
    }
    return this.listJoined(caller, filter, projection, plan);
  }

  private async listJoined(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
    plan: ProjectionPlan,
  ): Promise<RecordData[]> {
    const refined = await this.refineFilter(caller, filter);
    if (plan.replaced.length === 0) return this.readTarget.list(caller, refined, projection);

    const records = await this.readTarget.list(caller, refined, plan.childProjection);
    for (const { relation, target, foreignKey } of plan.replaced) {
      for (const record of records) {
        const value = record[foreignKey];
        record[relation] = value === null || value === undefined ? null : { [target]: value };
      }
    }
    return projection.apply(records);
  }

  /**
   * The relations a projection reads from foreign keys, and the projection sent down instead:
   * worked out once per distinct projection and schema version (requests repeat a few).
   */
  private planOf(projection: Projection): ProjectionPlan {
    const version = this.dataSource.clock.version;
    const key = projection.join('\u0000');
    let plan = this.plans.get(key);
    if (plan?.version !== version) {
      const replaced: ProjectionPlan['replaced'][number][] = [];
      for (const path of projection) {
        const relation = this.avoidable(path, projection);
        if (!relation) continue;
        const [name, target] = path.split(':') as [string, string];
        replaced.push({ relation: name, target, foreignKey: relation.foreignKey });
      }
      const childProjection =
        replaced.length === 0
          ? projection
          : projection.replace((path) => this.avoidable(path, projection)?.foreignKey ?? path);
      plan = { version, replaced, childProjection };
      if (this.plans.size >= MAX_PLANS) this.plans.delete(this.plans.keys().next().value as string);
      this.plans.set(key, plan);
    }
    return plan;
  }

  private readonly plans = new Map<string, ProjectionPlan>();

  /** The leaf on the foreign key that replaces `leaf`, or `leaf` itself. */
  private replaceLeaf(leaf: ConditionTreeLeaf): ConditionTreeLeaf {
    const relation = this.avoidable(leaf.field);
    const foreignKey = relation && this.childCollection.schema.fields[relation.foreignKey];
    const usable = foreignKey?.type === 'Column' && foreignKey.filterOperators?.has(leaf.operator);
    return usable && relation ? leaf.override({ field: relation.foreignKey }) : leaf;
  }

  /** A filter is kept when none of its leaves reads a target key through a relation. */
  protected override keepsFilter(filter: Filter): boolean {
    return (
      !filter.conditionTree ||
      filter.conditionTree.everyLeaf(
        (leaf) => !leaf.field.includes(':') || this.avoidable(leaf.field) === null,
      )
    );
  }

  protected override async refineFilter<F extends Filter | undefined>(
    _caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter?.conditionTree || this.keepsFilter(filter)) return filter;
    const conditionTree = filter.conditionTree.replaceLeafs((leaf) => this.replaceLeaf(leaf));
    return filter.override({ conditionTree }) as F;
  }
}
