import { Projection } from '../projection';
import {
  type Aggregator,
  ConditionTree,
  type PlainConditionTree,
  type PlainConditionTreeBranch,
} from './condition-tree';
import type { ConditionTreeLeaf } from './condition-tree-leaf';

/**
 * `And` / `Or` of conditions. An `And` without conditions matches everything; an `Or` without
 * conditions matches nothing.
 *
 * @example
 * new ConditionTreeBranch('Or', [
 *   new ConditionTreeLeaf('status', 'Equal', 'paid'),
 *   new ConditionTreeLeaf('total', 'GreaterThan', 100),
 * ]);
 */
export class ConditionTreeBranch extends ConditionTree {
  readonly conditions: readonly ConditionTree[];

  constructor(
    readonly aggregator: Aggregator,
    conditions: readonly ConditionTree[],
  ) {
    super();
    this.conditions = Object.freeze([...conditions]);
  }

  override forEachLeaf(handler: (leaf: ConditionTreeLeaf) => void): void {
    for (const condition of this.conditions) condition.forEachLeaf(handler);
  }

  override everyLeaf(predicate: (leaf: ConditionTreeLeaf) => boolean): boolean {
    return this.conditions.every((condition) => condition.everyLeaf(predicate));
  }

  override someLeaf(predicate: (leaf: ConditionTreeLeaf) => boolean): boolean {
    return this.conditions.some((condition) => condition.someLeaf(predicate));
  }

  override replaceLeafs(
    handler: (leaf: ConditionTreeLeaf) => ConditionTree | PlainConditionTree | null,
  ): ConditionTree | null {
    return this.rebuild(this.conditions.map((condition) => condition.replaceLeafs(handler)));
  }

  override async replaceLeafsAsync(
    handler: (leaf: ConditionTreeLeaf) => Promise<ConditionTree | PlainConditionTree | null>,
  ): Promise<ConditionTree | null> {
    const replaced = await Promise.all(
      this.conditions.map((condition) => condition.replaceLeafsAsync(handler)),
    );
    return this.rebuild(replaced);
  }

  override inverse(): ConditionTree {
    return new ConditionTreeBranch(
      this.aggregator === 'And' ? 'Or' : 'And',
      this.conditions.map((condition) => condition.inverse()),
    );
  }

  override replaceFields(handler: (field: string) => string): ConditionTreeBranch {
    return new ConditionTreeBranch(
      this.aggregator,
      this.conditions.map((condition) => condition.replaceFields(handler)),
    );
  }

  override get projection(): Projection {
    return this.conditions.reduce(
      (projection, condition) => projection.union(condition.projection),
      new Projection(),
    );
  }

  override toPlainObject(): PlainConditionTreeBranch {
    return {
      aggregator: this.aggregator,
      conditions: this.conditions.map((condition) => condition.toPlainObject()),
    };
  }

  /**
   * Rebuilds the branch from replaced children, where `null` means "match everything": it
   * disappears from an `And` and makes an `Or` match everything.
   */
  private rebuild(children: (ConditionTree | null)[]): ConditionTree | null {
    // Trees are immutable: when no child changed, this branch is the result.
    if (children.length > 0 && children.every((child, index) => child === this.conditions[index]))
      return this;
    if (this.aggregator === 'Or' && children.some((child) => child === null)) return null;
    const kept = children.filter((child): child is ConditionTree => child !== null);
    if (this.aggregator === 'And' && kept.length === 0) return null;
    return new ConditionTreeBranch(this.aggregator, kept);
  }
}
