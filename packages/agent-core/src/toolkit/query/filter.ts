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

  /**
   * A copy with some parts replaced (a part given as `undefined` is reset like in the
   * constructor). Filters are immutable: when every given part is already this filter's, the
   * filter itself is returned (layers that change nothing allocate nothing).
   */
  override(parts: FilterComponents): Filter {
    if (this.keeps(parts)) return this;
    return new Filter(this.merged(parts));
  }

  /** Whether `parts` only repeats values this filter already holds. */
  protected keeps(parts: FilterComponents): boolean {
    for (const key in parts) {
      if (parts[key as keyof FilterComponents] !== this[key as keyof FilterComponents]) {
        return false;
      }
    }
    return true;
  }

  /** This filter's parts with `parts` applied (no object spreads: this runs in every layer). */
  protected merged(parts: FilterComponents): FilterComponents {
    return {
      conditionTree: 'conditionTree' in parts ? parts.conditionTree : this.conditionTree,
      search: 'search' in parts ? parts.search : this.search,
      searchExtended: 'searchExtended' in parts ? parts.searchExtended : this.searchExtended,
      segment: 'segment' in parts ? parts.segment : this.segment,
      liveQuerySegment:
        'liveQuerySegment' in parts ? parts.liveQuerySegment : this.liveQuerySegment,
    };
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
