import type { Knex } from 'knex';

/** The server-sent events that tell agents to drop a cache (platform protocol section 7). */
export type PlatformEventName = 'refresh-users' | 'refresh-roles' | 'refresh-renderings';

/** The PostgreSQL channel a committed event is announced on; its payload is empty. */
export const PLATFORM_EVENTS_CHANNEL = 'canopy_platform_events';

/** One stored event. */
export interface PlatformEvent {
  id: string;
  projectId: number;
  event: PlatformEventName;
  data: string;
}

/**
 * Records an event for the agents of a project. Pass the transaction of the change: the event
 * becomes visible to every server process only when the change commits, and the NOTIFY sent
 * with it is delivered to their listeners at that moment too (never for a rolled-back change).
 */
export async function publishPlatformEvent(
  knex: Knex | Knex.Transaction,
  projectId: number,
  event: PlatformEventName,
  data: Record<string, unknown> = {},
): Promise<void> {
  await knex('platform_events').insert({
    project_id: projectId,
    event,
    data: JSON.stringify(data),
  });
  await knex.raw('SELECT pg_notify(?, ?)', [PLATFORM_EVENTS_CHANNEL, '']);
}

/**
 * Events recorded in the last `windowSeconds` (by the database clock), oldest first. Pollers
 * read a window rather than "ids after the last seen one" because ids are taken before commit:
 * a transaction holding a lower id may commit after a higher one was already read.
 */
export async function recentPlatformEvents(
  knex: Knex,
  windowSeconds: number,
): Promise<PlatformEvent[]> {
  const rows: { id: string; project_id: number; event: PlatformEventName; data: string }[] =
    await knex('platform_events')
      .whereRaw('created_at > now() - make_interval(secs => ?)', [windowSeconds])
      .orderBy('id')
      .select('id', 'project_id', 'event', 'data');
  return rows.map((row) => ({
    id: String(row.id),
    projectId: row.project_id,
    event: row.event,
    data: row.data,
  }));
}

/** Deletes events older than a day: pollers only ever read the last few seconds. */
export async function prunePlatformEvents(knex: Knex): Promise<number> {
  return knex('platform_events').whereRaw("created_at < now() - interval '1 day'").delete();
}
