import { ACTIVITY_LOG_ACTIONS, isActivityLogAction } from '@canopy/platform-protocol';
import type { ActivityLogEntry } from './types';

/** The `action` values of an activity log (public API spec, section 2.5). */
export { ACTIVITY_LOG_ACTIONS };

/** The most logs one batch may carry. */
export const MAX_BATCH_SIZE = 1000;

/**
 * Validates the body of `POST /liana/v1/activity-logs` (`{"logs": [...]}`).
 *
 * @throws Error naming the first path at fault and what it should be.
 */
export function parseActivityLogBatch(body: unknown): ActivityLogEntry[] {
  if (
    typeof body !== 'object' ||
    body === null ||
    !Array.isArray((body as { logs?: unknown }).logs)
  ) {
    throw new Error('body must be {"logs": [...]}');
  }
  const logs = (body as { logs: unknown[] }).logs;
  if (logs.length > MAX_BATCH_SIZE) {
    throw new Error(`logs has ${logs.length} entries; a batch carries at most ${MAX_BATCH_SIZE}`);
  }
  return logs.map((raw, index) => {
    const at = (key: string) => `logs[${index}].${key}`;
    if (typeof raw !== 'object' || raw === null)
      throw new Error(`logs[${index}] must be an object`);
    const log = raw as Record<string, unknown>;
    if (typeof log.id !== 'string' || log.id.length === 0 || log.id.length > 100) {
      throw new Error(`${at('id')} must be a string of 1 to 100 characters`);
    }
    if (typeof log.createdAt !== 'string' || Number.isNaN(Date.parse(log.createdAt))) {
      throw new Error(`${at('createdAt')} must be an ISO 8601 date-time`);
    }
    if (log.type !== 'read' && log.type !== 'write')
      throw new Error(`${at('type')} must be read or write`);
    if (typeof log.action !== 'string' || !isActivityLogAction(log.action)) {
      throw new Error(
        `${at('action')} must be one of the activity-log actions (got ${JSON.stringify(log.action)})`,
      );
    }
    if (typeof log.label !== 'string') throw new Error(`${at('label')} must be a string`);
    if (!Number.isInteger(log.userId)) throw new Error(`${at('userId')} must be an integer`);
    if (
      log.renderingId !== null &&
      log.renderingId !== undefined &&
      !Number.isInteger(log.renderingId)
    ) {
      throw new Error(`${at('renderingId')} must be an integer or null`);
    }
    if (
      log.collectionName !== null &&
      log.collectionName !== undefined &&
      (typeof log.collectionName !== 'string' || log.collectionName === '')
    ) {
      throw new Error(`${at('collectionName')} must be a non-empty string or null`);
    }
    const recordIds = log.recordIds ?? [];
    if (!Array.isArray(recordIds) || recordIds.some((id) => typeof id !== 'string')) {
      throw new Error(`${at('recordIds')} must be an array of strings`);
    }
    if (log.status !== undefined && log.status !== 'completed' && log.status !== 'failed') {
      throw new Error(`${at('status')} must be completed, failed or absent`);
    }
    if (
      log.errorMessage !== undefined &&
      (typeof log.errorMessage !== 'string' || log.errorMessage.length > 1000)
    ) {
      throw new Error(`${at('errorMessage')} must be a string of at most 1000 characters`);
    }
    return {
      id: log.id,
      createdAt: new Date(log.createdAt).toISOString(),
      type: log.type,
      action: log.action,
      label: log.label,
      userId: log.userId as number,
      renderingId: (log.renderingId as number | null | undefined) ?? null,
      collectionName: (log.collectionName as string | null | undefined) ?? null,
      recordIds: recordIds as string[],
      ...(log.status === undefined ? {} : { status: log.status }),
      ...(log.errorMessage === undefined ? {} : { errorMessage: log.errorMessage as string }),
    };
  });
}
