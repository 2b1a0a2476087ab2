import { decodeValues, needsFormToDecode } from './actions/form-values';
import { schemaVersionOf } from '../customizer/decorators/collection-decorator';
import type { ActionFormElement } from '../toolkit/action/action-form';
import type { ActionResult } from '../toolkit/action/action-result';
import type { Filter } from '../toolkit/query/filter';
import type { RecordData } from '../toolkit/record/record-utils';
import { isCanopyError } from '../toolkit/errors/canopy-error';
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
 * selection and is logged: `completed`, or `failed` with the message the user is shown when it
 * throws or answers an error result (platform protocol §10). A refused authorization is not an
 * execution and is not logged.
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
  const report = (outcome: { status: 'completed' | 'failed'; errorMessage?: string }) =>
    reportActivity(
      context,
      who,
      'action',
      collection.name,
      request.records.packedIds,
      name,
      outcome,
    );
  let result: ActionResult;
  try {
    const values = await decodeFormValues(who, action, filters.scoped, request.values);
    result = await collection.execute(who.caller, name, values, filters.scoped);
  } catch (error) {
    report({ status: 'failed', errorMessage: failureReason(error) });
    throw error;
  }
  report(
    result.type === 'Error'
      ? { status: 'failed', errorMessage: result.message }
      : { status: 'completed' },
  );
  return result;
}

/**
 * The reason logged for a thrown error: a Canopy error's message is written for the user (the
 * answer shows it); any other error is unexpected, and its text (which may name a host, a query
 * or a secret) stays in the agent's own logs, as in the answer (agent-http-protocol §14).
 */
function failureReason(error: unknown): string {
  return isCanopyError(error) ? error.message : 'Unexpected error';
}

/** The static forms read for decoding, by action, valid for one schema version. */
const staticForms = new WeakMap<
  ActionTarget['collection'],
  Map<string, { version: number; form: Promise<ActionFormElement[]> }>
>();

/**
 * The sent values decoded against the form's field types (§9.2 step 5). The form is read only
 * when a value's wire form depends on its field's type; a static form (schema `staticForm`: no
 * function, the same for every caller and selection) is read once per schema version, so an
 * execution then goes down the stack only to run the action.
 */
async function decodeFormValues(
  who: OperationCaller,
  { collection, name }: ActionTarget,
  selection: Filter,
  values: Record<string, unknown>,
): Promise<RecordData> {
  if (!needsFormToDecode(values)) return decodeValues(collection, [], values);
  const read = () =>
    collection.getForm(who.caller, name, undefined, selection, { includeHiddenFields: true });
  if (!collection.schema.actions[name]?.staticForm) {
    return decodeValues(collection, await read(), values);
  }
  let byName = staticForms.get(collection);
  if (!byName) {
    byName = new Map();
    staticForms.set(collection, byName);
  }
  const version = schemaVersionOf(collection);
  let cached = byName.get(name);
  if (!cached || cached.version !== version) {
    const entry = { version, form: read() };
    const cache = byName;
    entry.form.catch(() => {
      if (cache.get(name) === entry) cache.delete(name);
    });
    byName.set(name, entry);
    cached = entry;
  }
  return decodeValues(collection, await cached.form, values);
}
