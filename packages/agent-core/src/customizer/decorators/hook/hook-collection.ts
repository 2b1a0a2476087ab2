import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type { AggregateResult, Aggregation } from '../../../toolkit/query/aggregation';
import type { Filter } from '../../../toolkit/query/filter';
import type { PaginatedFilter } from '../../../toolkit/query/paginated-filter';
import type { Projection } from '../../../toolkit/query/projection';
import type { RecordData } from '../../../toolkit/record/record-utils';
import { CollectionDecorator } from '../collection-decorator';
import {
  HookAfterAggregateContext,
  HookAfterCreateContext,
  HookAfterListContext,
  HookBeforeAggregateContext,
  HookBeforeCreateContext,
  HookBeforeListContext,
  HookDeleteContext,
  type HookHandler,
  type HookPosition,
  type HookType,
  HookUpdateContext,
} from './hook-context';

const POSITIONS: HookPosition[] = ['Before', 'After'];
const TYPES: HookType[] = ['List', 'Create', 'Update', 'Delete', 'Aggregate'];

/**
 * Layers 5 and 9 — hooks around list, create, update, delete and aggregate. Handlers of a slot
 * run in registration order; a throw aborts. Contexts hold the layer below, so writes made from
 * a hook do not trigger hooks again. After-hooks see the original (pre-hook) inputs.
 */
export class HookCollectionDecorator extends CollectionDecorator {
  private readonly hooks = new Map<string, HookHandler[]>();

  addHook(position: HookPosition, type: HookType, handler: HookHandler): void {
    if (!POSITIONS.includes(position) || !TYPES.includes(type)) {
      throw new ValidationError(
        `Invalid hook '${String(position)} ${String(type)}' on '${this.name}'. Positions: ${POSITIONS.join(', ')}; types: ${TYPES.join(', ')}.`,
      );
    }
    if (typeof handler !== 'function')
      throw new ValidationError(`A hook of '${this.name}' needs a handler function.`);
    const key = `${position}${type}`;
    this.hooks.set(key, [...(this.hooks.get(key) ?? []), handler]);
  }

  /** Whether a handler is registered before or after `type` (reads skip the contexts if not). */
  private hasHooks(type: HookType): boolean {
    return this.hooks.has(`Before${type}`) || this.hooks.has(`After${type}`);
  }

  private async run(position: HookPosition, type: HookType, context: unknown): Promise<void> {
    for (const handler of this.hooks.get(`${position}${type}`) ?? [])
      await handler(context as never);
  }

  /** Lists go straight down when no list hook is registered. */
  override list(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    if (!this.hasHooks('List')) return this.readTarget.list(caller, filter, projection);
    return this.listHooked(caller, filter, projection);
  }

  private async listHooked(
    caller: Caller,
    filter: PaginatedFilter,
    projection: Projection,
  ): Promise<RecordData[]> {
    const child = this.childCollection;
    await this.run(
      'Before',
      'List',
      new HookBeforeListContext(child, caller, filter, Object.freeze(projection)),
    );
    const records = await this.readTarget.list(caller, filter, projection);
    await this.run(
      'After',
      'List',
      new HookAfterListContext(child, caller, filter, projection, Object.freeze([...records])),
    );
    return records;
  }

  override async create(caller: Caller, data: RecordData[]): Promise<RecordData[]> {
    const child = this.childCollection;
    const original = data.map((record) => ({ ...record }));
    await this.run(
      'Before',
      'Create',
      new HookBeforeCreateContext(child, caller, Object.freeze(data)),
    );
    const records = await child.create(caller, data);
    await this.run(
      'After',
      'Create',
      new HookAfterCreateContext(
        child,
        caller,
        Object.freeze(original),
        Object.freeze([...records]),
      ),
    );
    return records;
  }

  override async update(caller: Caller, filter: Filter, patch: RecordData): Promise<void> {
    const child = this.childCollection;
    const original = { ...patch };
    const working = { ...patch };
    await this.run('Before', 'Update', new HookUpdateContext(child, caller, filter, working));
    await child.update(caller, filter, working);
    await this.run(
      'After',
      'Update',
      new HookUpdateContext(child, caller, filter, Object.freeze(original)),
    );
  }

  override async delete(caller: Caller, filter: Filter): Promise<void> {
    const child = this.childCollection;
    await this.run('Before', 'Delete', new HookDeleteContext(child, caller, filter));
    await child.delete(caller, filter);
    await this.run('After', 'Delete', new HookDeleteContext(child, caller, filter));
  }

  override async aggregate(
    caller: Caller,
    filter: Filter,
    aggregation: Aggregation,
    limit?: number,
  ): Promise<AggregateResult[]> {
    const child = this.childCollection;
    if (!this.hasHooks('Aggregate'))
      return this.readTarget.aggregate(caller, filter, aggregation, limit);
    await this.run(
      'Before',
      'Aggregate',
      new HookBeforeAggregateContext(child, caller, filter, Object.freeze(aggregation), limit),
    );
    const result = await this.readTarget.aggregate(caller, filter, aggregation, limit);
    await this.run(
      'After',
      'Aggregate',
      new HookAfterAggregateContext(
        child,
        caller,
        filter,
        aggregation,
        limit,
        Object.freeze([...result]),
      ),
    );
    return result;
  }
}
