import type { Knex } from 'knex';
import { ApiError } from '../errors';
import { publishConsoleEvent } from '../store/console-events';
import type { AuthenticatedEnvironment } from '../store/model/environment-secrets';

const OPERATIONS = ['create', 'update', 'delete'] as const;

/** A write the agent made (docs/platform-protocol.md §7.1). */
export interface RecordChange {
  collection: string;
  recordId: string;
  userId: number;
  operation: (typeof OPERATIONS)[number];
  fields: string[];
  correlationId?: string;
}

function refuse(problem: string): never {
  throw new ApiError(400, 'invalid_body', `Record change: ${problem}.`);
}

const shortString = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value !== '' && value.length <= max;

/** Checks the body of `POST /liana/v1/record-changes`; a 400 names the wrong property. */
export function readRecordChange(body: unknown): RecordChange {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    refuse('the body must be an object');
  const b = body as Record<string, unknown>;
  const known = ['collection', 'recordId', 'userId', 'operation', 'fields', 'correlationId'];
  const extra = Object.keys(b).find((key) => !known.includes(key));
  if (extra !== undefined) refuse(`"${extra}" is not a property`);
  if (!shortString(b.collection, 255)) refuse('"collection" must be a collection name');
  if (!shortString(b.recordId, 1024)) refuse('"recordId" must be a non-empty string');
  if (
    typeof b.userId !== 'number' ||
    !Number.isInteger(b.userId) ||
    b.userId < 1 ||
    b.userId > 2_147_483_647
  ) {
    refuse('"userId" must be the id of a user');
  }
  if (!OPERATIONS.includes(b.operation as RecordChange['operation'])) {
    refuse(`"operation" must be one of ${OPERATIONS.join(', ')}`);
  }
  const fields = b.fields ?? [];
  if (!Array.isArray(fields) || fields.length > 500 || !fields.every((f) => shortString(f, 255))) {
    refuse('"fields" must be a list of at most 500 field names');
  }
  if (b.correlationId !== undefined && !shortString(b.correlationId, 200)) {
    refuse('"correlationId" must be a string of at most 200 characters');
  }
  return {
    collection: b.collection,
    recordId: b.recordId,
    userId: b.userId,
    operation: b.operation as RecordChange['operation'],
    fields: fields as string[],
    ...(b.correlationId === undefined ? {} : { correlationId: b.correlationId as string }),
  };
}

/**
 * Publishes a `record-changed` event to the Console streams of the environment (members who may
 * see the collection's notes, docs/public-api.md §8). The user must be a member of the project.
 */
export async function publishRecordChange(
  knex: Knex,
  environment: AuthenticatedEnvironment,
  change: RecordChange,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const member = await trx('project_memberships')
      .where({ project_id: environment.projectId, user_id: change.userId })
      .first('id');
    if (!member) refuse(`user ${change.userId} is not a member of this project`);
    await publishConsoleEvent(trx, {
      projectId: environment.projectId,
      environmentId: environment.id,
      collectionName: change.collection,
      event: 'record-changed',
      data: { ...change },
    });
  });
}
