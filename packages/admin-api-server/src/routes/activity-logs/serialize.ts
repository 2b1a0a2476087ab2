import type { ActivityLogItem } from '@canopy/platform-protocol';
import type { ActivityLogPageRow, ActivityLogRow } from '../../store/activity-log-queries';
import { userItem } from '../serialize-user';

/** Shapes a row into its contract item. */
export function activityLogItem(row: ActivityLogRow, environmentName: string): ActivityLogItem {
  const item: ActivityLogItem = {
    object: 'activityLog',
    id: row.external_id ?? String(row.id),
    type: row.type,
    action: row.action,
    recordIds: row.record_ids,
    createdAt: row.created_at.toISOString(),
    user: userItem(row.user_id, row.user_email, row.user_username),
    environment: { object: 'environment', name: environmentName },
    team: { object: 'team', name: row.team_name },
  };
  if (row.label !== null) item.label = row.label;
  if (row.collection_name !== null)
    item.collection = { object: 'collection', name: row.collection_name };
  if (row.status !== null) item.status = row.status;
  if (row.error_message !== null) item.errorMessage = row.error_message;
  if (row.inbox_name !== null) item.inbox = { object: 'inbox', name: row.inbox_name };
  if (row.workflow !== null) {
    const { name, runId, stepName, optionName } = row.workflow;
    item.workflow = { object: 'workflow', name: name ?? '', runId: runId ?? '' };
    if (stepName !== undefined) item.workflow.stepName = stepName;
    if (optionName !== undefined) item.workflow.optionName = optionName;
  }
  return item;
}

/**
 * The JSON text of `activityLogItem(row, environmentName)`, written straight from the row, without
 * building the item: the list's hot path. `environmentJson` is `JSON.stringify(environmentName)`,
 * the same for every row of a page; the row's `created_at` is already its ISO string and its
 * `record_ids` its JSON text (a list page's rows carry them so). serialize.test.ts checks it against `JSON.stringify` of the item.
 */
export function activityLogJson(row: ActivityLogPageRow, environmentJson: string): string {
  let json = `{"object":"activityLog","id":${jsonString(row.external_id ?? String(row.id))},"type":${jsonString(row.type)},"action":${jsonString(row.action)},"recordIds":${row.record_ids},"createdAt":"${row.created_at}","user":{"object":"user","email":${jsonString(row.user_email)},"id":${JSON.stringify(row.user_id)},"username":${jsonString(row.user_username)}},"environment":{"object":"environment","name":${environmentJson}},"team":{"object":"team","name":${jsonString(row.team_name)}}`;
  if (row.label !== null) json += `,"label":${jsonString(row.label)}`;
  if (row.collection_name !== null) {
    json += `,"collection":{"object":"collection","name":${jsonString(row.collection_name)}}`;
  }
  if (row.status !== null) json += `,"status":${jsonString(row.status)}`;
  if (row.error_message !== null) json += `,"errorMessage":${jsonString(row.error_message)}`;
  if (row.inbox_name !== null) {
    json += `,"inbox":{"object":"inbox","name":${jsonString(row.inbox_name)}}`;
  }
  if (row.workflow !== null) {
    const { name, runId, stepName, optionName } = row.workflow;
    json += `,"workflow":{"object":"workflow","name":${JSON.stringify(name ?? '')},"runId":${JSON.stringify(runId ?? '')}`;
    if (stepName !== undefined) json += `,"stepName":${JSON.stringify(stepName)}`;
    if (optionName !== undefined) json += `,"optionName":${JSON.stringify(optionName)}`;
    json += '}';
  }
  return `${json}}`;
}

/** Characters `JSON.stringify` escapes in a string (lone surrogates among them). */
// eslint-disable-next-line no-control-regex -- the characters JSON escapes include the control characters
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(value)` of a string: the string in quotes when it holds nothing JSON escapes
 * (ids, names and emails nearly always), `JSON.stringify` otherwise.
 */
function jsonString(value: string): string {
  return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
}
