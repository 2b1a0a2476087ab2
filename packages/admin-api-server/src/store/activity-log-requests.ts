import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import { attributedTeam } from './activity-log-ingestion';
import { insertActivityLogs, type ActivityAction, type ActivityType } from './activity-log-writer';

/** The statuses of an activity log opened before an operation and closed after it. */
export const ACTIVITY_LOG_REQUEST_STATUSES = ['pending', 'completed', 'failed'] as const;
/** One of {@link ACTIVITY_LOG_REQUEST_STATUSES}. */
export type ActivityLogRequestStatus = (typeof ACTIVITY_LOG_REQUEST_STATUSES)[number];

/** The longest failure reason kept (a longer one is refused, not cut). */
export const MAX_ERROR_MESSAGE_LENGTH = 1000;

/** The index every request-created log answers with (an opaque path segment for agents). */
export const ACTIVITY_LOG_REQUEST_INDEX = 'activity-logs';

/** An activity log an MCP server (or a workflow executor) opens for a user. */
export interface ActivityLogRequest {
  type: ActivityType;
  action: ActivityAction;
  label: string | null;
  status: ActivityLogRequestStatus;
  recordIds: string[];
  renderingId: number | null;
  collectionName: string | null;
}

/**
 * Stores an activity log in the same chain as ingested ones (so the public API lists it), with
 * a fresh public id, and its status beside it (the status is not part of the chained content:
 * it changes once the operation ends).
 *
 * @throws ApiError 403 when the user is not a member of the environment's project.
 */
export async function createActivityLogRequest(
  knex: Knex,
  environment: { id: number; projectId: number },
  userId: number,
  request: ActivityLogRequest,
): Promise<{ id: string; index: string }> {
  const id = randomUUID();
  await knex.transaction(async (trx) => {
    const member = await trx('project_memberships')
      .where({ project_id: environment.projectId, user_id: userId })
      .first('id');
    if (!member) {
      throw new ApiError(403, 'forbidden', 'This user is not a member of the project any more.');
    }
    const teamId = await attributedTeam(trx, environment.projectId, userId, request.renderingId);
    await insertActivityLogs(trx, environment.projectId, [
      {
        environmentId: environment.id,
        userId,
        teamId,
        type: request.type,
        action: request.action,
        label: request.label,
        collectionName: request.collectionName,
        recordIds: request.recordIds,
        externalId: id,
      },
    ]);
    await trx('activity_log_requests').insert({
      environment_id: environment.id,
      external_id: id,
      user_id: userId,
      status: request.status,
    });
  });
  return { id, index: ACTIVITY_LOG_REQUEST_INDEX };
}

/**
 * Sets the status of a log the same user opened in the same environment, with the reason of a
 * failure when one is given (a `completed` status clears it).
 *
 * @throws ApiError 404 when there is no such log (agents retry on 404: it may not be stored yet).
 */
export async function updateActivityLogRequestStatus(
  knex: Knex,
  environmentId: number,
  userId: number,
  target: { index: string; id: string },
  status: ActivityLogRequestStatus,
  errorMessage: string | null = null,
): Promise<void> {
  const updated =
    target.index === ACTIVITY_LOG_REQUEST_INDEX
      ? await knex('activity_log_requests')
          .where({ environment_id: environmentId, external_id: target.id, user_id: userId })
          .update({ status, error_message: errorMessage, updated_at: knex.fn.now() })
      : 0;
  if (updated === 0) {
    throw new ApiError(
      404,
      'activity_log_not_found',
      `No activity log ${target.index}/${target.id} of this user in this environment.`,
    );
  }
}
