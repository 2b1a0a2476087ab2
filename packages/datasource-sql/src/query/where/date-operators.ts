import { INTERVAL_OPERATORS, type Operator } from '@canopy/agent-core/toolkit';
import type { DateTime } from 'luxon';
import { instantToDatabase } from '../../values/to-database';
import { periodOf } from '../date-bounds';
import { bindings, bound, isDateOnly, type Leaf, type OperatorTranslator } from './leaf';

/** An instant as the column compares it: the local calendar date for Dateonly columns. */
function at(leaf: Leaf, instant: DateTime): unknown {
  if (isDateOnly(leaf.column)) return instant.setZone(leaf.options.timezone).toISODate();
  return instantToDatabase(instant.toJSDate(), leaf.dialect);
}

function compareWith(sign: '<' | '>', value: (leaf: Leaf) => unknown): OperatorTranslator {
  return (leaf) => leaf.query.whereRaw(`?? ${sign} ?`, bindings([leaf.ref, value(leaf)]));
}

/** `[start, end)` of a relative period in the caller's zone (a `>=` lower bound, deliberately). */
function period(operator: Operator): OperatorTranslator {
  return (leaf) => {
    const { timezone, now } = leaf.options;
    const days = typeof leaf.value === 'number' ? leaf.value : undefined;
    const bounds = periodOf(operator, timezone, now, days);
    if (!bounds) throw new Error(`Unsupported operator: "${operator}".`);
    return leaf.query
      .whereRaw('?? >= ?', bindings([leaf.ref, at(leaf, bounds.start)]))
      .whereRaw('?? < ?', bindings([leaf.ref, at(leaf, bounds.end)]));
  };
}

const hoursAgo = (leaf: Leaf) => at(leaf, leaf.options.now.minus({ hours: Number(leaf.value) }));

/** Date operators, computed in the caller's time zone with "now" fixed for the whole query. */
export const DATE_OPERATORS: Partial<Record<Operator, OperatorTranslator>> = {
  Before: compareWith('<', (leaf) => bound(leaf, leaf.value)),
  After: compareWith('>', (leaf) => bound(leaf, leaf.value)),
  Past: compareWith('<', (leaf) => at(leaf, leaf.options.now)),
  Future: compareWith('>', (leaf) => at(leaf, leaf.options.now)),
  BeforeXHoursAgo: compareWith('<', hoursAgo),
  AfterXHoursAgo: compareWith('>', hoursAgo),
  ...Object.fromEntries(INTERVAL_OPERATORS.map((operator) => [operator, period(operator)])),
};
