import type { ActionRecords, ActionTarget } from '../../operations/action-selection';
import type { FlatQuery } from '../query/query-string';
import { readSelection, selectionTree, type Selection } from '../query/selection';
import type { WireField } from '../../operations/actions/form-values';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The selection of an action's request; a global action runs on all records. */
export function readActionSelection(
  action: ActionTarget,
  body: unknown,
  query: FlatQuery,
): Selection {
  return actionSelection(action, readSelection(action.collection, withIds(body), query));
}

/** The records an action runs on: the selection, or all records for a global action. */
export function actionSelection(action: ActionTarget, selection: Selection): Selection {
  const scope = action.collection.schema.actions[action.name]?.scope;
  return scope === 'Global'
    ? { ...selection, ids: [], allRecords: true, excludedIds: [] }
    : selection;
}

/** The records of a selection as the action operations take them. */
export function actionRecords(action: ActionTarget, selection: Selection): ActionRecords {
  return {
    filter: selection.parameters,
    selection: selectionTree(action.collection, selection),
    parent: selection.parent,
    packedIds: selection.ids.map((id) => id.map(String).join('|')),
  };
}

/** The `fields` of a hook body (§9.4). */
export function wireFields(attributes: Record<string, unknown>): WireField[] {
  return Array.isArray(attributes.fields) ? (attributes.fields as WireField[]) : [];
}

/** Hook bodies of global actions may omit `ids`; an empty list is what they mean. */
function withIds(body: unknown): unknown {
  if (!isObject(body) || !isObject(body.data) || !isObject(body.data.attributes)) return body;
  const attributes = body.data.attributes;
  if (attributes.ids !== undefined || attributes.all_records === true) return body;
  return { ...body, data: { ...body.data, attributes: { ...attributes, ids: [] } } };
}
