import { DateTime } from 'luxon';

import { getPeriod, isPeriodOperator } from '../../toolkit/evaluator/date-periods';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeBranch } from '../../toolkit/query/condition-tree/condition-tree-branch';
import { ConditionTreeLeaf } from '../../toolkit/query/condition-tree/condition-tree-leaf';
import { resolveColumnPath } from '../../toolkit/validation/field-path';

const STEP: Record<string, Record<string, number>> = {
  Today: { days: 1 },
  Yesterday: { days: 1 },
  PreviousWeek: { weeks: 1 },
  PreviousWeekToDate: { weeks: 1 },
  PreviousMonth: { months: 1 },
  PreviousMonthToDate: { months: 1 },
  PreviousQuarter: { quarters: 1 },
  PreviousQuarterToDate: { quarters: 1 },
  PreviousYear: { years: 1 },
  PreviousYearToDate: { years: 1 },
};

/**
 * Whether a Value chart compares with the previous period (quirk 10): the filter has a period
 * operator and its root is a leaf or an `Or` branch.
 */
export function hasPreviousPeriod(tree: ConditionTree | null): boolean {
  if (!tree) return false;
  if (tree instanceof ConditionTreeBranch && tree.aggregator === 'And') return false;
  return tree.someLeaf((leaf) => isPeriodOperator(leaf.operator));
}

/** The same filter with every period shifted one step back, as explicit date bounds. */
export function shiftToPreviousPeriod(
  collection: Collection,
  tree: ConditionTree,
  timezone: string,
): ConditionTree {
  return tree.replaceLeafs((leaf) => {
    if (!isPeriodOperator(leaf.operator)) return leaf;
    const days = leaf.operator.startsWith('PreviousXDays') ? Number(leaf.value) : 0;
    const step = STEP[leaf.operator] ?? { days };
    const now = DateTime.now().setZone(timezone).minus(step).toJSDate();
    const period = getPeriod(leaf.operator, leaf.value, { timezone, now });
    const dateOnly = resolveColumnPath(collection, leaf.field).schema.columnType === 'Dateonly';
    const format = (date: DateTime) =>
      dateOnly ? (date.toISODate() as string) : (date.toUTC().toISO() as string);
    return new ConditionTreeBranch('And', [
      new ConditionTreeLeaf(leaf.field, 'GreaterThanOrEqual', format(period.start)),
      new ConditionTreeLeaf(leaf.field, 'LessThan', format(period.end)),
    ]);
  }) as ConditionTree;
}
