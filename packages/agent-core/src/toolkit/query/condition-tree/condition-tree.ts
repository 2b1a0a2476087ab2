import type { Operator } from '../operators';
import type { Projection } from '../projection';
import type { ConditionTreeLeaf } from './condition-tree-leaf';

/** How a branch combines its conditions. */
export type Aggregator = 'And' | 'Or';

/** A leaf as a plain object: `{ field: 'title', operator: 'Contains', value: 'tea' }`. */
export interface PlainConditionTreeLeaf {
  field: string;
  operator: Operator;
  value?: unknown;
}

/** A branch as a plain object: `{ aggregator: 'And', conditions: [...] }`. */
export interface PlainConditionTreeBranch {
  aggregator: Aggregator;
  conditions: PlainConditionTree[];
}

/** A condition tree as a plain object (JSON). */
export type PlainConditionTree = PlainConditionTreeLeaf | PlainConditionTreeBranch;

/**
 * An immutable filter condition: a leaf (`field operator value`) or a branch (`And`/`Or` of
 * conditions). "Match everything" is represented by the absence of a tree (`null`); "match
 * nothing" by an `Or` branch without conditions.
 *
 * Evaluation is not a method of the tree: the in-memory evaluator and the SQL translator are
 * separate walkers over the same tree.
 */
export abstract class ConditionTree {
  /** Calls `handler` for every leaf, depth first. */
  abstract forEachLeaf(handler: (leaf: ConditionTreeLeaf) => void): void;
  /** Whether `predicate` holds for every leaf (true for a branch without leaves). */
  abstract everyLeaf(predicate: (leaf: ConditionTreeLeaf) => boolean): boolean;
  /** Whether `predicate` holds for at least one leaf. */
  abstract someLeaf(predicate: (leaf: ConditionTreeLeaf) => boolean): boolean;
  /**
   * Replaces every leaf by the tree (or plain object) `handler` returns; `null` means "match
   * everything" for that leaf.
   */
  abstract replaceLeafs(
    handler: (leaf: ConditionTreeLeaf) => ConditionTree | PlainConditionTree | null,
  ): ConditionTree | null;
  /** Async variant of {@link ConditionTree.replaceLeafs}. */
  abstract replaceLeafsAsync(
    handler: (leaf: ConditionTreeLeaf) => Promise<ConditionTree | PlainConditionTree | null>,
  ): Promise<ConditionTree | null>;
  /** The negation of this tree (De Morgan on branches; `Not…` counterpart on leaves). */
  abstract inverse(): ConditionTree;
  /** Plain-object (JSON) form. */
  abstract toPlainObject(): PlainConditionTree;
  /** Every field path used by a leaf. */
  abstract get projection(): Projection;

  /** Prepends `prefix:` to every field (to filter a relation from its parent). */
  nest(prefix: string): ConditionTree {
    return this.replaceFields((field) => `${prefix}:${field}`);
  }

  /** Renames every field with `handler`. */
  abstract replaceFields(handler: (field: string) => string): ConditionTree;

  /** Removes the common first path segment; every leaf must go through the same relation. */
  unnest(): ConditionTree {
    let prefix: string | null = null;
    this.forEachLeaf((leaf) => {
      const first = leaf.field.split(':')[0] ?? '';
      if (!leaf.field.includes(':') || (prefix !== null && prefix !== first)) {
        throw new Error('Cannot unnest condition tree: leaves do not share a relation prefix.');
      }
      prefix = first;
    });
    if (prefix === null) return this;
    const length = (prefix as string).length + 1;
    return this.replaceFields((field) => field.slice(length));
  }
}
