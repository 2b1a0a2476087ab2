import type { Caller } from '../../../toolkit/caller';
import type { Collection } from '../../../toolkit/interfaces/collection';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { Filter } from '../../../toolkit/query/filter';
import type { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import { CollectionCustomizationContext } from '../../context/customization-context';

/** Hook positions. */
export type HookPosition = 'Before' | 'After';
/** Hooked operations. */
export type HookType = 'List' | 'Create' | 'Update' | 'Delete' | 'Aggregate';

class HookContext extends CollectionCustomizationContext {
  constructor(collection: Collection, caller: Caller) {
    super(collection, caller);
  }
}

/** Before List: `filter` and `projection` (frozen). */
export class HookBeforeListContext extends HookContext {
  constructor(
    collection: Collection,
    caller: Caller,
    readonly filter: PaginatedFilter,
    readonly projection: Readonly<Projection>,
  ) {
    super(collection, caller);
  }
}

/** After List: adds the returned `records` (frozen). */
export class HookAfterListContext extends HookBeforeListContext {
  constructor(
    collection: Collection,
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
    readonly records: readonly RecordData[],
  ) {
    super(collection, caller, filter, projection);
  }
}

/** Before Create: `data` (array frozen, each record mutable in place). */
export class HookBeforeCreateContext extends HookContext {
  constructor(
    collection: Collection,
    caller: Caller,
    readonly data: readonly RecordData[],
  ) {
    super(collection, caller);
  }
}

/** After Create: adds the created `records`. */
export class HookAfterCreateContext extends HookBeforeCreateContext {
  constructor(
    collection: Collection,
    caller: Caller,
    data: readonly RecordData[],
    readonly records: readonly RecordData[],
  ) {
    super(collection, caller, data);
  }
}

/** Before/After Update: `filter` and the `patch` (mutable before the update). */
export class HookUpdateContext extends HookContext {
  constructor(
    collection: Collection,
    caller: Caller,
    readonly filter: Filter,
    readonly patch: RecordData,
  ) {
    super(collection, caller);
  }
}

/** Before/After Delete: `filter`. */
export class HookDeleteContext extends HookContext {
  constructor(
    collection: Collection,
    caller: Caller,
    readonly filter: Filter,
  ) {
    super(collection, caller);
  }
}

/** Before Aggregate: `filter`, `aggregation` (frozen) and `limit`. */
export class HookBeforeAggregateContext extends HookContext {
  constructor(
    collection: Collection,
    caller: Caller,
    readonly filter: Filter,
    readonly aggregation: Aggregation,
    readonly limit?: number,
  ) {
    super(collection, caller);
  }
}

/** After Aggregate: adds the `aggregateResult`. */
export class HookAfterAggregateContext extends HookBeforeAggregateContext {
  constructor(
    collection: Collection,
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit: number | undefined,
    readonly aggregateResult: readonly AggregateResult[],
  ) {
    super(collection, caller, filter, aggregation, limit);
  }
}

/** The context each hook slot receives. */
export interface HookContexts {
  Before: {
    List: HookBeforeListContext;
    Create: HookBeforeCreateContext;
    Update: HookUpdateContext;
    Delete: HookDeleteContext;
    Aggregate: HookBeforeAggregateContext;
  };
  After: {
    List: HookAfterListContext;
    Create: HookAfterCreateContext;
    Update: HookUpdateContext;
    Delete: HookDeleteContext;
    Aggregate: HookAfterAggregateContext;
  };
}

/** A hook handler for a position and type. */
export type HookHandler<P extends HookPosition = HookPosition, T extends HookType = HookType> = (
  context: HookContexts[P][T],
) => Promise<void> | void;
