import { decodeValues } from '../http/actions/form-values';
import type { ActionResult } from '../toolkit/action/action-result';
import { reportActivity } from './activity-log';
import { authorizeExecution } from './action-authorization';
import { type ActionRecords, type ActionTarget, selectionFilters } from './action-selection';
import type { OperationCaller, OperationContext } from './context';

export interface ExecuteActionRequest {
  readonly records: ActionRecords;
  /** The form's values as sent (wire form), decoded against the action's form. */
  readonly values: Record<string, unknown>;
  /** The user who asked for the approved execution (a verified signed approval), else `null`. */
  readonly requesterId: number | null;
}

/**
 * Runs an action on the selected records (agent-http-protocol §9.5, §9.7): the trigger or approval
 * path is authorized on the selection's filter (built once, scoped and unscoped), the values are
 * decoded against the action's form (hidden fields included), then the action runs on the scoped
 * selection and is logged.
 */
export async function executeAction(
  context: OperationContext,
  who: OperationCaller,
  action: ActionTarget,
  request: ExecuteActionRequest,
): Promise<ActionResult> {
  const { collection, name } = action;
  const filters = await selectionFilters(context, who, action, request.records);
  await authorizeExecution(context, who, collection, name, filters, request.requesterId);
  const form = await collection.getForm(who.caller, name, undefined, filters.scoped, {
    includeHiddenFields: true,
  });
  const values = decodeValues(collection, form, request.values);
  const result = await collection.execute(who.caller, name, values, filters.scoped);
  reportActivity(context, who, 'action', collection.name, request.records.packedIds, name);
  return result;
}
