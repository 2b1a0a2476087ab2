import { ApiError } from '../errors';
import type { RejectedActivityLog, ReportedActivityLog } from '../store/activity-log-ingestion';
import { ACTIVITY_ACTIONS, type ActivityAction } from '../store/activity-log-writer';
import { readId } from '../validation/input-rules';
import { readErrorMessage } from './activity-log-requests';

/** The most logs one batch may carry. */
export const MAX_BATCH_SIZE = 1000;
/** The longest label, collection, inbox or workflow name kept (longer is refused, not cut). */
const MAX_TEXT = 10_000;

const ACTIONS = new Set<string>(ACTIVITY_ACTIONS);

/** A batch split into the logs that can be stored and those refused, with the reason of each. */
export interface ActivityLogBatch {
  logs: ReportedActivityLog[];
  rejected: RejectedActivityLog[];
}

class InvalidLog extends Error {}

const text = (value: unknown, max = MAX_TEXT) =>
  typeof value === 'string' && value.length <= max && !value.includes('\u0000');

/**
 * Validates a batch `{"logs": [...]}` entry by entry: a malformed log is refused on its own
 * (with its index, its id when it has a usable one, and what is wrong), the others go on to be
 * stored. The agent resends a refused batch, so one bad log must not block the rest for ever.
 *
 * @throws ApiError 400 when the body itself is not a batch (no `logs` array, too many logs).
 */
export function readActivityLogBatch(body: unknown): ActivityLogBatch {
  const logs = (body as { logs?: unknown } | null)?.logs;
  if (!Array.isArray(logs)) {
    throw new ApiError(
      400,
      'invalid_body',
      'Invalid activity-log batch: the body must be {"logs": [...]}.',
    );
  }
  if (logs.length > MAX_BATCH_SIZE) {
    throw new ApiError(
      400,
      'invalid_body',
      `Invalid activity-log batch: logs must have at most ${MAX_BATCH_SIZE} entries.`,
    );
  }
  const batch: ActivityLogBatch = { logs: [], rejected: [] };
  logs.forEach((raw: unknown, index) => {
    const id = (raw as { id?: unknown } | null)?.id;
    try {
      batch.logs.push(readLog(raw, index));
    } catch (error) {
      if (!(error instanceof InvalidLog)) throw error;
      batch.rejected.push({
        index,
        id: typeof id === 'string' ? id : null,
        reason: error.message,
      });
    }
  });
  return batch;
}

function readLog(raw: unknown, index: number): ReportedActivityLog {
  const fail = (key: string, expected: string): never => {
    throw new InvalidLog(`logs[${index}]${key ? `.${key}` : ''} must be ${expected}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('', 'an object');
  const log = raw as Record<string, unknown>;
  if (!text(log.id, 100) || log.id === '') fail('id', 'a string of 1 to 100 characters');
  const createdAt = typeof log.createdAt === 'string' ? new Date(log.createdAt) : undefined;
  const time = createdAt?.getTime();
  // The range PostgreSQL's timestamptz and JSON dates both hold (years 0 to 9999).
  if (time === undefined || Number.isNaN(time) || time < -62167219200000 || time > 253402300799999)
    fail('createdAt', 'an ISO 8601 date-time between the years 0 and 9999');
  if (log.type !== 'read' && log.type !== 'write') fail('type', 'read or write');
  if (typeof log.action !== 'string' || !ACTIONS.has(log.action)) {
    fail('action', `one of the activity-log actions (got ${JSON.stringify(log.action)})`);
  }
  const label = log.label ?? null;
  if (label !== null && !text(label)) fail('label', 'a string, null or absent');
  if (!isInt4(log.userId)) fail('userId', 'a positive integer');
  const renderingId = log.renderingId ?? null;
  if (renderingId !== null && !isInt4(renderingId))
    fail('renderingId', 'a positive integer or null');
  const collectionName = log.collectionName ?? null;
  if (collectionName !== null && (!text(collectionName) || collectionName === '')) {
    fail('collectionName', 'a non-empty string or null');
  }
  const recordIds = log.recordIds ?? [];
  if (!Array.isArray(recordIds) || !recordIds.every((recordId) => text(recordId))) {
    fail('recordIds', 'an array of strings');
  }
  const inbox = log.inbox ?? null;
  if (inbox !== null && !isNamed(inbox)) fail('inbox', '{"name": string} or null');
  const workflow = log.workflow ?? null;
  if (workflow !== null && !isWorkflow(workflow)) {
    fail('workflow', '{"name", "runId"[, "stepName", "optionName"]} (strings) or null');
  }
  const status = log.status ?? null;
  if (status !== null && status !== 'completed' && status !== 'failed') {
    fail('status', 'completed, failed, null or absent');
  }
  const errorMessage = readErrorMessage(log.errorMessage, status, (key, expected) =>
    fail(key, expected),
  );
  return {
    id: log.id as string,
    index,
    createdAt: createdAt!,
    type: log.type as 'read' | 'write',
    action: log.action as ActivityAction,
    label: label as string | null,
    userId: log.userId as number,
    renderingId: renderingId as number | null,
    collectionName: collectionName as string | null,
    recordIds: recordIds as string[],
    inbox: inbox === null ? null : { name: (inbox as { name: string }).name },
    workflow: workflow as ReportedActivityLog['workflow'],
    status: status as ReportedActivityLog['status'],
    errorMessage,
  };
}

// JSON numbers only: a log's ids are never text, though the shared reader also takes text ids.
const isInt4 = (value: unknown) => typeof value === 'number' && readId(value) !== undefined;

const isNamed = (value: unknown): value is { name: string } =>
  typeof value === 'object' && value !== null && text((value as { name?: unknown }).name);

function isWorkflow(value: unknown): boolean {
  if (!isNamed(value)) return false;
  const { runId, stepName, optionName, ...rest } = value as Record<string, unknown>;
  delete rest.name;
  return (
    Object.keys(rest).length === 0 &&
    text(runId) &&
    (stepName === undefined || text(stepName)) &&
    (optionName === undefined || text(optionName))
  );
}
