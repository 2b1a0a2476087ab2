import { decodeValues, flattenFields } from './actions/form-values';
import { ForbiddenError, ValidationError } from '../toolkit/errors/canopy-error';
import type { ActionField, ActionFormElement } from '../toolkit/action/action-form';
import type { RecordData } from '../toolkit/record/record-utils';
import { canTrigger } from './action-authorization';
import { type ActionRecords, type ActionTarget, selectionFilters } from './action-selection';
import type { OperationCaller, OperationContext } from './context';
import type { ParsedRequest } from './request';

export interface LoadFormRequest {
  readonly records: ActionRecords;
  /** Wire values to set on the loaded form (decoded against it), or none. */
  readonly values: Record<string, unknown>;
}

export interface ChangeFormRequest {
  readonly records: ActionRecords;
  /** The form's values, decoded. */
  readonly values: RecordData;
  readonly changedField: string | null;
}

export interface SearchFormRequest {
  readonly records: ActionRecords;
  readonly values: RecordData;
  readonly searchField: string | null;
  readonly searchValue: string | null;
}

const FORBIDDEN = "You don't have permission to trigger this action.";

async function openForm(
  context: OperationContext,
  who: OperationCaller,
  action: ActionTarget,
  records: () => ActionRecords,
) {
  if (!(await canTrigger(context, who, action.collection, action.name))) {
    throw new ForbiddenError(FORBIDDEN);
  }
  return selectionFilters(context, who, action, records());
}

/**
 * The form of an action for the selected records (the `load` hook, agent-http-protocol §9.4):
 * needs the trigger right. Values sent with the request are decoded against the form and set on
 * it (the form is then computed again with them).
 */
export async function loadActionForm(
  context: OperationContext,
  who: OperationCaller,
  action: ActionTarget,
  parse: ParsedRequest<LoadFormRequest>,
): Promise<ActionFormElement[]> {
  let request: LoadFormRequest | undefined;
  const { scoped } = await openForm(context, who, action, () => {
    request = parse();
    return request.records;
  });
  const { collection, name } = action;
  const values = (request as LoadFormRequest).values;
  const form = await collection.getForm(who.caller, name, {}, scoped, {});
  if (Object.keys(values).length === 0) return form;
  const decoded = decodeValues(collection, form, values);
  return collection.getForm(who.caller, name, decoded, scoped, {});
}

/** The form after a field changed (the `change` hook, §9.4): needs the trigger right. */
export async function changeActionForm(
  context: OperationContext,
  who: OperationCaller,
  action: ActionTarget,
  parse: ParsedRequest<ChangeFormRequest>,
): Promise<ActionFormElement[]> {
  let request: ChangeFormRequest | undefined;
  const { scoped } = await openForm(context, who, action, () => {
    request = parse();
    return request.records;
  });
  const { values, changedField } = request as ChangeFormRequest;
  return action.collection.getForm(who.caller, action.name, values, scoped, { changedField });
}

/**
 * The searched field of a form with its options for a search text (the `search` hook, §9.4):
 * needs the trigger right; a field the form does not have is a validation error.
 */
export async function searchActionForm(
  context: OperationContext,
  who: OperationCaller,
  action: ActionTarget,
  parse: ParsedRequest<SearchFormRequest>,
): Promise<ActionField> {
  let request: SearchFormRequest | undefined;
  const { scoped } = await openForm(context, who, action, () => {
    request = parse();
    return request.records;
  });
  const { values, searchField, searchValue } = request as SearchFormRequest;
  const elements = await action.collection.getForm(who.caller, action.name, values, scoped, {
    searchField,
    searchValue,
  });
  const field = flattenFields(elements).find((candidate) => candidate.id === searchField);
  if (!field) throw new ValidationError(`The form has no field '${String(searchField)}' to search`);
  return field;
}
