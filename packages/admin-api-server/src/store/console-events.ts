import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { ConsoleEventName } from '@canopy/platform-protocol';

/** The PostgreSQL channel a committed Console event is announced on; its payload is empty. */
export const CONSOLE_EVENTS_CHANNEL = 'canopy_console_events';

/** How many events after a client's `Last-Event-ID` are replayed; more and it must resync. */
export const REPLAY_LIMIT = 500;

/** A Console event as stored: who gets it is decided by the stream (src/console-live/hub.ts). */
export interface ConsoleEventRow {
  id: string;
  projectId: number;
  /** Null: every environment of the project. */
  environmentId: number | null;
  /** Null: every member who may see it. */
  userId: number | null;
  /** For note events: hidden from members to whom this collection's notes are hidden. */
  collectionName: string | null;
  adminsOnly: boolean;
  event: ConsoleEventName;
  data: string;
}

/** What to publish. */
export interface ConsoleEventInput {
  projectId: number;
  environmentId: number | null;
  userId?: number | null;
  collectionName?: string | null;
  adminsOnly?: boolean;
  event: ConsoleEventName;
  data: Record<string, unknown>;
}

/**
 * Records a Console event in the transaction of its change (pass `trx`: the event and its NOTIFY
 * exist only once the change commits). A transaction-level advisory lock is taken before the id:
 * publishers take turns until they commit, so ids commit in id order and a reader that saw id N
 * has seen every lower id (the price: Console-event writes of the whole database serialize).
 */
export async function publishConsoleEvent(
  trx: Knex.Transaction,
  input: ConsoleEventInput,
): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [CONSOLE_EVENTS_LOCK]);
  await trx('console_events').insert({
    project_id: input.projectId,
    environment_id: input.environmentId,
    user_id: input.userId ?? null,
    collection_name: input.collectionName ?? null,
    admins_only: input.adminsOnly ?? false,
    event: input.event,
    data: JSON.stringify(input.data),
  });
  await trx.raw('SELECT pg_notify(?, ?)', [CONSOLE_EVENTS_CHANNEL, '']);
}

/** The key of the advisory lock ordering Console events. */
const CONSOLE_EVENTS_LOCK = 33_001;

interface Row {
  id: string;
  project_id: number;
  environment_id: number | null;
  user_id: number | null;
  collection_name: string | null;
  admins_only: boolean;
  event: ConsoleEventName;
  data: string;
}

const COLUMNS = [
  'id',
  'project_id',
  'environment_id',
  'user_id',
  'collection_name',
  'admins_only',
  'event',
  'data',
];

function toEvent(row: Row): ConsoleEventRow {
  return {
    id: String(row.id),
    projectId: row.project_id,
    environmentId: row.environment_id,
    userId: row.user_id,
    collectionName: row.collection_name,
    adminsOnly: row.admins_only,
    event: row.event,
    data: row.data,
  };
}

/** Events of any project with an id above `afterId`, oldest first (at most `limit`). */
export async function consoleEventsAfter(
  knex: Knex,
  afterId: string,
  limit: number,
): Promise<ConsoleEventRow[]> {
  const rows: Row[] = await knex('console_events')
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .select(COLUMNS);
  return rows.map(toEvent);
}

/** The highest event id stored (0 when none): where a new hub starts reading. */
export async function lastConsoleEventId(knex: Knex): Promise<string> {
  const row = await knex('console_events').max({ id: 'id' }).first();
  return String((row?.id as string | null) ?? '0');
}

/**
 * The events of one project/environment in (`afterId`, `upToId`], for a client resuming with
 * `Last-Event-ID`: `undefined` when they cannot be replayed: an id from the future, events after
 * it already pruned (pruning removes a prefix of ids, so any stored id at or below `afterId + 1`
 * proves none was), or more than {@link REPLAY_LIMIT} of them. The client then resyncs.
 */
export async function replayConsoleEvents(
  knex: Knex,
  place: { projectId: number; environmentId: number },
  afterId: bigint,
  upToId: bigint,
): Promise<ConsoleEventRow[] | undefined> {
  if (afterId > upToId) return undefined;
  if (afterId === upToId) return [];
  const oldest = await knex('console_events').min({ id: 'id' }).first();
  if (
    oldest?.id === null ||
    oldest?.id === undefined ||
    BigInt(oldest.id as string) > afterId + 1n
  ) {
    return undefined;
  }
  const rows: Row[] = await knex('console_events')
    .where({ project_id: place.projectId })
    .where((q) => q.where({ environment_id: place.environmentId }).orWhereNull('environment_id'))
    .where('id', '>', afterId.toString())
    .where('id', '<=', upToId.toString())
    .orderBy('id')
    .limit(REPLAY_LIMIT + 1)
    .select(COLUMNS);
  if (rows.length > REPLAY_LIMIT) return undefined;
  return rows.map(toEvent);
}

/**
 * Deletes the events older than `maxAgeSeconds` (the bound of the replay buffer) and expired
 * stream tickets. A prefix of ids is deleted, up to the first event still young enough.
 */
export async function pruneConsoleEvents(knex: Knex, maxAgeSeconds = 3600): Promise<number> {
  await knex('console_stream_tickets').where('expires_at', '<', knex.fn.now()).delete();
  const young = await knex('console_events')
    .whereRaw('created_at >= now() - make_interval(secs => ?)', [maxAgeSeconds])
    .min({ id: 'id' })
    .first();
  const below = young?.id ?? null;
  const query = knex('console_events');
  if (below !== null) query.where('id', '<', below as string);
  return query.delete();
}

/** How long a stream ticket may wait before it is used. */
export const TICKET_TTL_SECONDS = 60;

function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/** Issues a single-use ticket opening one stream of `userId` on one project/environment. */
export async function issueStreamTicket(
  knex: Knex,
  place: { userId: number; projectId: number; environmentId: number },
): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + TICKET_TTL_SECONDS * 1000);
  await knex('console_stream_tickets').insert({
    ticket_hash: hashTicket(ticket),
    user_id: place.userId,
    project_id: place.projectId,
    environment_id: place.environmentId,
    expires_at: expiresAt,
  });
  return { ticket, expiresAt };
}

/** Spends a ticket (deleted whether or not it matches): its place, or undefined. */
export async function consumeStreamTicket(
  knex: Knex,
  ticket: string,
): Promise<{ userId: number; projectId: number; environmentId: number } | undefined> {
  const [row] = (await knex('console_stream_tickets')
    .where({ ticket_hash: hashTicket(ticket) })
    .delete()
    .returning(['user_id', 'project_id', 'environment_id', 'expires_at'])) as {
    user_id: number;
    project_id: number;
    environment_id: number;
    expires_at: Date;
  }[];
  if (!row || row.expires_at.getTime() < Date.now()) return undefined;
  return { userId: row.user_id, projectId: row.project_id, environmentId: row.environment_id };
}
