import { ValidationError } from '../errors/canopy-error';
import type { ConditionTree, PlainConditionTree } from './condition-tree/condition-tree';
import { toConditionTree } from './condition-tree/to-condition-tree';

/** A SQL-defined segment run on a native-query connection. */
export interface LiveQuerySegment {
  query: string;
  connectionName: string;
  contextVariables?: Record<string, unknown>;
}

/** The parts of a {@link Filter}. */
export interface FilterComponents {
  conditionTree?: ConditionTree | PlainConditionTree | null;
  search?: string | null;
  searchExtended?: boolean;
  segment?: string | null;
  liveQuerySegment?: LiveQuerySegment | null;
}

/**
 * Which records an operation targets: a condition tree, a free-text search, a segment name.
 *
 * @example
 * new Filter({ conditionTree: new ConditionTreeLeaf('status', 'Equal', 'paid'), search: 'ada' });
 */
export class Filter {
  readonly conditionTree: ConditionTree | null;
  readonly search: string | null;
  readonly searchExtended: boolean;
  readonly segment: string | null;
  readonly liveQuerySegment: LiveQuerySegment | null;

  constructor(parts: FilterComponents = {}) {
    this.conditionTree = toConditionTree(parts.conditionTree);
    this.search = parts.search ?? null;
    this.searchExtended = parts.searchExtended ?? false;
    this.segment = parts.segment ?? null;
    this.liveQuerySegment = parts.liveQuerySegment ?? null;
  }

  /** A filter is nestable under a relation only without search and segments. */
  get isNestable(): boolean {
    return !this.search && !this.segment && !this.liveQuerySegment;
  }

  /** A copy with some parts replaced. */
  override(parts: FilterComponents): Filter {
    return new Filter({ ...this.components(), ...parts });
  }

  /** The filter applied to a relation's records from the parent (fields prefixed `prefix:`). */
  nest(prefix: string): Filter {
    if (!this.isNestable) {
      throw new ValidationError("Filter can't be nested: it has a search or a segment.");
    }
    return this.override({ conditionTree: this.conditionTree?.nest(prefix) ?? null });
  }

  /** The parts of this filter, to build a modified copy. */
  protected components(): FilterComponents {
    return {
      conditionTree: this.conditionTree,
      search: this.search,
      searchExtended: this.searchExtended,
      segment: this.segment,
      liveQuerySegment: this.liveQuerySegment,
    };
  }
}
