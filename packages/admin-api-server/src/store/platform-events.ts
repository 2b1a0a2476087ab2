import type { Knex } from 'knex';

/**
 * The server-sent events of agents (platform protocol section 7): drop a cache, or refuse the
 * agent session tokens of a user who signed out (`revoke-agent-sessions`).
 */
export type PlatformEventName =
  'refresh-users' | 'refresh-roles' | 'refresh-renderings' | 'revoke-agent-sessions';

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

/** One sign-out: the agent session tokens of `userId` issued at or before `before` are refused. */
export interface AgentSessionRevocation {
  userId: number;
  /** Seconds since the epoch. */
  before: number;
}

/**
 * Records that `userId` signed out: a `revoke-agent-sessions` event for the agents of every
 * project the user is a member of, so that each replica refuses the user's agent session tokens
 * issued until now. The events stay readable for a day (far longer than an agent session token
 * lives), so an agent that starts or reconnects reads them back ({@link agentSessionRevocations}).
 */
export async function revokeAgentSessions(
  knex: Knex,
  userId: number,
): Promise<AgentSessionRevocation> {
  const revocation = { userId, before: Math.floor(Date.now() / 1000) };
  await knex.transaction(async (trx) => {
    const projects: { project_id: number }[] = await trx('project_memberships')
      .where({ user_id: userId })
      .select('project_id');
    for (const { project_id: projectId } of projects) {
      await publishPlatformEvent(trx, projectId, 'revoke-agent-sessions', { ...revocation });
    }
  });
  return revocation;
}

/** The sign-outs of the last day for the agents of `projectId`, the latest per user. */
export async function agentSessionRevocations(
  knex: Knex,
  projectId: number,
): Promise<AgentSessionRevocation[]> {
  const rows: { data: string }[] = await knex('platform_events')
    .where({ project_id: projectId, event: 'revoke-agent-sessions' })
    .whereRaw("created_at > now() - interval '1 day'")
    .select('data');
  const latest = new Map<number, number>();
  for (const row of rows) {
    const { userId, before } = JSON.parse(row.data) as AgentSessionRevocation;
    latest.set(userId, Math.max(before, latest.get(userId) ?? 0));
  }
  return [...latest].map(([userId, before]) => ({ userId, before }));
}
