import { ValidationError } from '../../errors/canopy-error';
import type { Operator } from '../operators';
import { Projection } from '../projection';
import {
  ConditionTree,
  type PlainConditionTree,
  type PlainConditionTreeLeaf,
} from './condition-tree';
import { toConditionTree } from './to-condition-tree';

const INVERSES: Partial<Record<Operator, Operator>> = {
  Equal: 'NotEqual',
  NotEqual: 'Equal',
  In: 'NotIn',
  NotIn: 'In',
  Contains: 'NotContains',
  NotContains: 'Contains',
  IContains: 'NotIContains',
  NotIContains: 'IContains',
  Blank: 'Present',
  Present: 'Blank',
};

/**
 * A condition on one field.
 *
 * @example
 * new ConditionTreeLeaf('author:country', 'Equal', 'UK');
 */
export class ConditionTreeLeaf extends ConditionTree {
  constructor(
    readonly field: string,
    readonly operator: Operator,
    readonly value?: unknown,
  ) {
    super();
  }

  override forEachLeaf(handler: (leaf: ConditionTreeLeaf) => void): void {
    handler(this);
  }

  override everyLeaf(predicate: (leaf: ConditionTreeLeaf) => boolean): boolean {
    return predicate(this);
  }

  override someLeaf(predicate: (leaf: ConditionTreeLeaf) => boolean): boolean {
    return predicate(this);
  }

  override replaceLeafs(
    handler: (leaf: ConditionTreeLeaf) => ConditionTree | PlainConditionTree | null,
  ): ConditionTree | null {
    return toConditionTree(handler(this));
  }

  override async replaceLeafsAsync(
    handler: (leaf: ConditionTreeLeaf) => Promise<ConditionTree | PlainConditionTree | null>,
  ): Promise<ConditionTree | null> {
    return toConditionTree(await handler(this));
  }

  override inverse(): ConditionTree {
    const inverse = INVERSES[this.operator];
    if (!inverse) {
      throw new ValidationError(
        `Operator '${this.operator}' cannot be inverted (field '${this.field}'). Invertible operators: ${Object.keys(
          INVERSES,
        )
          .filter((op) => INVERSES[op as Operator])
          .join(', ')}.`,
      );
    }
    return this.override({ operator: inverse });
  }

  override replaceFields(handler: (field: string) => string): ConditionTreeLeaf {
    return this.override({ field: handler(this.field) });
  }

  override get projection(): Projection {
    return new Projection(this.field);
  }

  override toPlainObject(): PlainConditionTreeLeaf {
    return this.value === undefined
      ? { field: this.field, operator: this.operator }
      : { field: this.field, operator: this.operator, value: this.value };
  }

  /** A copy with some parts replaced. */
  override(parts: Partial<PlainConditionTreeLeaf>): ConditionTreeLeaf {
    const plain = { ...this.toPlainObject(), ...parts };
    return new ConditionTreeLeaf(plain.field, plain.operator, plain.value);
  }
}
