import { ApiError } from '../errors';
import type { ReportedActivityLog } from '../store/activity-log-ingestion';
import { ACTIVITY_ACTIONS, type ActivityAction } from '../store/activity-log-writer';
import { parseInstant, readId } from '../validation/input-rules';

/** The most logs one batch may carry. */
export const MAX_BATCH_SIZE = 1000;

const ACTIONS = new Set<string>(ACTIVITY_ACTIONS);

const invalid = (path: string, expected: string) =>
  new ApiError(400, 'invalid_body', `Invalid activity-log batch: ${path} must be ${expected}.`);

/**
 * Validates a batch `{"logs": [...]}`.
 *
 * @throws ApiError 400 naming the first path at fault and what it should be.
 */
export function readActivityLogBatch(body: unknown): ReportedActivityLog[] {
  const logs = (body as { logs?: unknown } | null)?.logs;
  if (!Array.isArray(logs)) throw invalid('the body', '{"logs": [...]}');
  if (logs.length > MAX_BATCH_SIZE) throw invalid('logs', `at most ${MAX_BATCH_SIZE} entries`);
  return logs.map((raw: unknown, index) => {
    const at = (key: string) => `logs[${index}].${key}`;
    if (typeof raw !== 'object' || raw === null) throw invalid(`logs[${index}]`, 'an object');
    const log = raw as Record<string, unknown>;
    if (typeof log.id !== 'string' || log.id.length === 0 || log.id.length > 100) {
      throw invalid(at('id'), 'a string of 1 to 100 characters');
    }
    const createdAt = parseInstant(log.createdAt);
    if (createdAt === undefined) {
      throw invalid(at('createdAt'), 'an ISO 8601 date-time of a year 0001 to 9999');
    }
    if (log.type !== 'read' && log.type !== 'write') throw invalid(at('type'), 'read or write');
    if (typeof log.action !== 'string' || !ACTIONS.has(log.action)) {
      throw invalid(
        at('action'),
        `one of the activity-log actions (got ${JSON.stringify(log.action)})`,
      );
    }
    if (typeof log.label !== 'string') throw invalid(at('label'), 'a string');
    if (readId(log.userId) === undefined)
      throw invalid(at('userId'), 'a user id (1 to 2147483647)');
    const renderingId = log.renderingId ?? null;
    if (renderingId !== null && readId(renderingId) === undefined) {
      throw invalid(at('renderingId'), 'a rendering id (1 to 2147483647) or null');
    }
    const collectionName = log.collectionName ?? null;
    if (collectionName !== null && (typeof collectionName !== 'string' || collectionName === '')) {
      throw invalid(at('collectionName'), 'a non-empty string or null');
    }
    const recordIds = log.recordIds ?? [];
    if (!Array.isArray(recordIds) || recordIds.some((id) => typeof id !== 'string')) {
      throw invalid(at('recordIds'), 'an array of strings');
    }
    return {
      id: log.id,
      createdAt,
      type: log.type,
      action: log.action as ActivityAction,
      label: log.label,
      userId: log.userId as number,
      renderingId: renderingId as number | null,
      collectionName: collectionName as string | null,
      recordIds: recordIds as string[],
    };
  });
}
