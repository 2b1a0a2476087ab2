/**
 * The colour of each row of a collection's table under the team's layout (`rowColours`,
 * row-colours.ts). The rules' evaluator loads with the first table that has rules, never with
 * the first screen; until it is there (a moment), rows are drawn plain.
 */
import type { TableLayout } from '@canopy/platform-protocol';
import { useEffect, useMemo, useState } from 'react';
import { operatorLabel, type AgentRecord } from '../../protocol';
import { userContext } from '../components/format';
import type * as RowColours from './row-colours';
import type { RowColour } from './row-colours';
import './row-colours.css';

type Evaluator = typeof RowColours;

let loaded: Evaluator | undefined;

/** How a row is coloured, or undefined when the layout has no rules (or they are loading). */
export function useRowColours(
  rules: TableLayout['rowColours'],
): ((record: AgentRecord) => RowColour | undefined) | undefined {
  const wanted = (rules?.length ?? 0) > 0;
  const [evaluator, setEvaluator] = useState<Evaluator | undefined>(loaded);
  useEffect(() => {
    if (!wanted || evaluator) return;
    let live = true;
    void import('./row-colours').then((module) => {
      loaded = module;
      if (live) setEvaluator(module);
    });
    return () => {
      live = false;
    };
  }, [wanted, evaluator]);
  return useMemo(() => {
    if (!wanted || !evaluator) return undefined;
    // "Now" and the zone of this page of rows: periods (today, last week) are read once per page.
    const context = { timeZone: userContext.timeZone, now: Date.now(), operatorLabel };
    // One answer per record object: a row re-rendered for another reason gets the same colour
    // object, and its memo holds.
    const seen = new WeakMap<AgentRecord, RowColour | undefined>();
    return (record: AgentRecord) => {
      if (!seen.has(record)) seen.set(record, evaluator.rowColour(rules!, record, context));
      return seen.get(record);
    };
  }, [wanted, evaluator, rules]);
}
