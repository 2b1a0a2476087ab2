import { publishConsoleEvent } from '../console-events';
import type { Member } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import { publishAccessChange } from '../access-changes';
import { ApiError } from '../../errors';
import { insertAdminLogs } from '../admin-log-writer';
import { DEFAULT_TEAM_NAME, type PermissionLevel } from '../model';
import { issueAccountToken, type IssuedAccountToken } from '../model/account-tokens';
import { publishPlatformEvent } from '../platform-events';
import { memberValue } from './admin-values';
import { roleIdByName, teamIdsByName } from './validate-references';

/** What a member's settings may be changed to. */
export interface MemberChanges {
  permissionLevel?: PermissionLevel;
  /** Role name; `null` removes the role. */
  roleName?: string | null;
  teamNames?: string[];
  tags?: Record<string, string>;
}

/** A member as the management API shows it (the wire type of @canopy/platform-protocol). */
export type MemberItem = Member;

/** The members of a project. */
export async function listMembers(knex: Knex, projectId: number): Promise<MemberItem[]> {
  const rows = await knex('project_memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .leftJoin('roles as r', 'r.id', 'm.role_id')
    .where('m.project_id', projectId)
    .orderBy('u.id')
    .select(
      'm.id as membership_id',
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'm.permission_level',
      'm.tags',
      'r.name as role_name',
      knex.raw(
        `coalesce((SELECT array_agg(t.name ORDER BY t.name) FROM project_membership_teams mt JOIN teams t ON t.id = mt.team_id WHERE mt.membership_id = m.id), '{}') as team_names`,
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    permissionLevel: row.permission_level,
    roleName: row.role_name ?? null,
    teamNames: row.team_names,
    tags: row.tags ?? {},
  }));
}

async function applyChanges(
  trx: Knex.Transaction,
  projectId: number,
  membershipId: number,
  changes: MemberChanges,
): Promise<void> {
  const update: Record<string, unknown> = { updated_at: trx.fn.now() };
  if (changes.permissionLevel !== undefined) update.permission_level = changes.permissionLevel;
  if (changes.roleName !== undefined) {
    update.role_id =
      changes.roleName === null ? null : await roleIdByName(trx, projectId, changes.roleName);
  }
  if (changes.tags !== undefined) update.tags = JSON.stringify(changes.tags);
  await trx('project_memberships').where({ id: membershipId }).update(update);
  if (changes.teamNames !== undefined) {
    const teamIds = await teamIdsByName(trx, projectId, changes.teamNames);
    await trx('project_membership_teams').where({ membership_id: membershipId }).delete();
    if (teamIds.length > 0) {
      await trx('project_membership_teams').insert(
        teamIds.map((teamId) => ({ membership_id: membershipId, team_id: teamId })),
      );
    }
  }
}

/**
 * Adds a user to a project, with an admin log and a `refresh-users` event, in one transaction.
 * When the email is new, the account is created without a password and an invitation (a one-time
 * token that lets its holder set the password) is returned, to be handed to that person. Adding an
 * existing account gives no power over it: no invitation, no password.
 *
 * @throws ApiError 409 when already a member; 404 naming an unknown role or team.
 */
export async function addMember(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  input: MemberChanges & {
    email: string;
    firstName?: string;
    lastName?: string;
    permissionLevel: PermissionLevel;
  },
): Promise<{ member: MemberItem; invitation?: IssuedAccountToken }> {
  const { userId, invitation } = await knex.transaction(async (trx) => {
    const existing = await trx('users')
      .whereRaw('lower(email) = lower(?)', [input.email])
      .first('id');
    const user =
      existing ??
      (
        await trx('users')
          .insert({
            email: input.email,
            username:
              [input.firstName, input.lastName].filter(Boolean).join(' ') ||
              input.email.split('@')[0],
            first_name: input.firstName ?? '',
            last_name: input.lastName ?? '',
          })
          .returning(['id'])
      )[0];
    const [membership] = await trx('project_memberships')
      .insert({ project_id: projectId, user_id: user.id, permission_level: input.permissionLevel })
      .onConflict(['project_id', 'user_id'])
      .ignore()
      .returning(['id']);
    if (!membership) {
      throw new ApiError(409, 'conflict', `${input.email} is already a member of this project.`);
    }
    await applyChanges(trx, projectId, membership.id, {
      ...input,
      teamNames: input.teamNames ?? [DEFAULT_TEAM_NAME],
    });
    await insertAdminLogs(trx, projectId, [
      {
        type: 'add',
        resource: 'user-project',
        initiator: 'administrator',
        userId: actorId,
        newValue: await memberValue(trx, projectId, user.id),
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-users');
    return {
      userId: user.id as number,
      invitation: existing ? undefined : await issueAccountToken(trx, user.id, 'invitation'),
    };
  });
  const member = (await listMembers(knex, projectId)).find((item) => item.id === userId)!;
  return invitation ? { member, invitation } : { member };
}

async function membershipOf(trx: Knex.Transaction, projectId: number, userId: number) {
  const row = await trx('project_memberships')
    .where({ project_id: projectId, user_id: userId })
    .forUpdate()
    .first('id');
  if (!row)
    throw new ApiError(404, 'user_not_found', `User ${userId} is not a member of this project.`);
  return row.id as number;
}

/** Changes a member's permission level, role, teams or tags; agents see it within a second. */
export async function updateMember(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  userId: number,
  changes: MemberChanges,
): Promise<MemberItem> {
  await knex.transaction(async (trx) => {
    const membershipId = await membershipOf(trx, projectId, userId);
    const previousValue = await memberValue(trx, projectId, userId);
    await applyChanges(trx, projectId, membershipId, changes);
    if (changes.permissionLevel !== undefined) await publishAccessChange(trx);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'update',
        resource: 'user-project',
        initiator: 'administrator',
        userId: actorId,
        previousValue,
        newValue: await memberValue(trx, projectId, userId),
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-users');
    await publishRightsChanged(trx, projectId, userId);
    if (changes.teamNames !== undefined) {
      const teams = await trx('teams').where({ project_id: projectId }).pluck('id');
      await publishPlatformEvent(trx, projectId, 'refresh-renderings', { renderingIds: teams });
    }
  });
  return (await listMembers(knex, projectId)).find((member) => member.id === userId)!;
}

/** Removes a user from a project (the user and their history stay). */
export async function removeMember(
  knex: Knex,
  projectId: number,
  actorId: number | null,
  userId: number,
): Promise<void> {
  await knex.transaction(async (trx) => {
    const membershipId = await membershipOf(trx, projectId, userId);
    const previousValue = await memberValue(trx, projectId, userId);
    await trx('project_memberships').where({ id: membershipId }).delete();
    await publishAccessChange(trx);
    await publishRightsChanged(trx, projectId, userId);
    await insertAdminLogs(trx, projectId, [
      {
        type: 'remove',
        resource: 'user-project',
        initiator: 'administrator',
        userId: actorId,
        previousValue,
      },
    ]);
    await publishPlatformEvent(trx, projectId, 'refresh-users');
  });
}

/** What forgets an account's failed sign-ins (the server's LoginLimiter): until when it was locked. */
export interface AccountUnlocker {
  unlock(email: string): Promise<Date | undefined>;
}

/**
 * Lifts the sign-in lock of a member's account (too many failed sign-ins): their failed attempts
 * are forgotten and, when the account was locked, an admin log records it (the member before,
 * with `lockedUntil`, and after). The lock is the account's, so this unlocks it for every project.
 *
 * @throws ApiError 404 when the user is no member of the project.
 */
export async function unlockMember(
  knex: Knex,
  limiter: AccountUnlocker,
  projectId: number,
  actorId: number | null,
  userId: number,
): Promise<{ wasLockedUntil: Date | undefined }> {
  return knex.transaction(async (trx) => {
    await membershipOf(trx, projectId, userId);
    const value = (await memberValue(trx, projectId, userId))!;
    const { email } = await trx('users').where({ id: userId }).first('email');
    const wasLockedUntil = await limiter.unlock(email);
    if (wasLockedUntil) {
      await insertAdminLogs(trx, projectId, [
        {
          type: 'update',
          resource: 'user-project',
          initiator: 'administrator',
          userId: actorId,
          previousValue: { ...value, lockedUntil: wasLockedUntil.toISOString() },
          newValue: { ...value, lockedUntil: null },
        },
      ]);
    }
    return { wasLockedUntil };
  });
}

/** Tells the member's Console streams of the project (every environment) to reload rights. */
export async function publishRightsChanged(
  trx: Knex.Transaction,
  projectId: number,
  userId: number,
): Promise<void> {
  await publishConsoleEvent(trx, {
    projectId,
    environmentId: null,
    userId,
    event: 'rights-changed',
    data: { userId },
  });
}
