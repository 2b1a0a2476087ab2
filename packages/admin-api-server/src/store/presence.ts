import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { invalidBody } from '../errors';
import { publishConsoleEvent } from './console-events';

/** How long a presence lasts without a heartbeat. */
export const PRESENCE_TTL_SECONDS = 30;

/**
 * How long an open stream is counted without its server renewing it (every 15 s, with the
 * stream's heartbeat): a stream of a server that died stops counting after this.
 */
export const STREAM_TTL_SECONDS = 45;

/** Where a stream is open: whose, in which project and environment. */
interface StreamPlace {
  userId: number;
  projectId: number;
  environmentId: number;
}

/** Records an open stream (any server's streams count): its id, given to the client. */
export async function registerStream(knex: Knex, place: StreamPlace): Promise<string> {
  const id = randomUUID();
  await knex('console_streams').insert({
    id,
    project_id: place.projectId,
    environment_id: place.environmentId,
    user_id: place.userId,
    expires_at: knex.raw(`now() + interval '${STREAM_TTL_SECONDS} seconds'`),
  });
  return id;
}

/** Keeps the streams of this server counted. */
export async function renewStreams(knex: Knex, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await knex('console_streams')
    .whereIn('id', ids)
    .update({ expires_at: knex.raw(`now() + interval '${STREAM_TTL_SECONDS} seconds'`) });
}

/**
 * A stream closed: it stops counting, and the member's presence in the environment is cleared
 * (and announced) when that stream reported it, or when it was reported without a stream and no
 * other stream of the member there is open on any server. The presence row is locked first, so
 * two last streams closing at once on two servers cannot both see the other still open.
 */
export async function closeStream(knex: Knex, streamId: string, place: StreamPlace): Promise<void> {
  await knex.transaction(async (trx) => {
    const presence = (await trx('console_presence')
      .where({ environment_id: place.environmentId, user_id: place.userId })
      .forUpdate()
      .first('stream_id')) as { stream_id: string | null } | undefined;
    await trx('console_streams').where({ id: streamId }).delete();
    if (!presence) return;
    if (presence.stream_id !== streamId) {
      if (presence.stream_id !== null) return;
      const others = await trx('console_streams')
        .where({ environment_id: place.environmentId, user_id: place.userId })
        .where('expires_at', '>', trx.fn.now())
        .first('id');
      if (others) return;
    }
    await clearPresence(trx, place.userId, place);
  });
}

/** Throws a 400 unless `streamId` is an open stream of the member in the environment. */
export async function assertOwnStream(
  knex: Knex,
  streamId: string,
  place: StreamPlace,
): Promise<void> {
  const found = await knex('console_streams')
    .where({ id: streamId, environment_id: place.environmentId, user_id: place.userId })
    .where('expires_at', '>', knex.fn.now())
    .first('id');
  if (!found) {
    throw invalidBody('streamId', 'must be the id of one of your open streams of this environment');
  }
}

interface Place {
  projectId: number;
  environmentId: number;
  collectionName: string;
  recordId: string;
}

/**
 * A `presence` event for one record: who has it open now. Streams give it to the members who
 * may see the collection (docs/public-api.md §8).
 */
async function publishPresence(trx: Knex.Transaction, place: Place): Promise<void> {
  const userIds: number[] = await trx('console_presence')
    .where({
      environment_id: place.environmentId,
      collection_name: place.collectionName,
      record_id: place.recordId,
    })
    .where('expires_at', '>', trx.fn.now())
    .orderBy('user_id')
    .pluck('user_id');
  await publishConsoleEvent(trx, {
    projectId: place.projectId,
    environmentId: place.environmentId,
    collectionName: place.collectionName,
    event: 'presence',
    data: { collection: place.collectionName, recordId: place.recordId, userIds },
  });
}

/**
 * Records that `userId` has a record open (one record per user and environment: opening another
 * leaves the first). Announces the record, and the one left, when the set of viewers changed.
 */
export async function heartbeatPresence(
  knex: Knex,
  userId: number,
  place: Place,
  streamId: string | null = null,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const before = (await trx('console_presence')
      .where({ environment_id: place.environmentId, user_id: userId })
      .forUpdate()
      .first('collection_name', 'record_id', 'expires_at')) as
      { collection_name: string; record_id: string; expires_at: Date } | undefined;
    await trx('console_presence')
      .insert({
        project_id: place.projectId,
        environment_id: place.environmentId,
        user_id: userId,
        collection_name: place.collectionName,
        record_id: place.recordId,
        stream_id: streamId,
        expires_at: trx.raw(`now() + interval '${PRESENCE_TTL_SECONDS} seconds'`),
      })
      .onConflict(['environment_id', 'user_id'])
      .merge();
    const same =
      before &&
      before.collection_name === place.collectionName &&
      before.record_id === place.recordId &&
      before.expires_at.getTime() > Date.now();
    if (same) return;
    if (before) {
      await publishPresence(trx, {
        ...place,
        collectionName: before.collection_name,
        recordId: before.record_id,
      });
    }
    await publishPresence(trx, place);
  });
}

/** `userId` closed the record it had open in the environment (nothing when none). */
export async function leavePresence(
  knex: Knex,
  userId: number,
  place: { projectId: number; environmentId: number },
): Promise<void> {
  await knex.transaction((trx) => clearPresence(trx, userId, place));
}

/** Deletes the member's presence in the environment and announces the record left. */
async function clearPresence(
  trx: Knex.Transaction,
  userId: number,
  place: { projectId: number; environmentId: number },
): Promise<void> {
  const [left] = (await trx('console_presence')
    .where({ environment_id: place.environmentId, user_id: userId })
    .delete()
    .returning(['collection_name', 'record_id'])) as {
    collection_name: string;
    record_id: string;
  }[];
  if (left) {
    await publishPresence(trx, {
      ...place,
      collectionName: left.collection_name,
      recordId: left.record_id,
    });
  }
}

/**
 * Deletes expired presences and announces their records: run by every process, each row deleted
 * (and announced) by one only.
 */
export async function expirePresence(knex: Knex): Promise<number> {
  return knex.transaction(async (trx) => {
    // The streams of a server that stopped renewing them.
    await trx('console_streams').where('expires_at', '<=', trx.fn.now()).delete();
    const gone = (await trx('console_presence')
      .where('expires_at', '<=', trx.fn.now())
      .delete()
      .returning(['project_id', 'environment_id', 'collection_name', 'record_id'])) as {
      project_id: number;
      environment_id: number;
      collection_name: string;
      record_id: string;
    }[];
    const records = new Map(
      gone.map((g) => [`${g.environment_id}\u0000${g.collection_name}\u0000${g.record_id}`, g]),
    );
    for (const g of records.values()) {
      await publishPresence(trx, {
        projectId: g.project_id,
        environmentId: g.environment_id,
        collectionName: g.collection_name,
        recordId: g.record_id,
      });
    }
    return gone.length;
  });
}
