import type { Knex } from 'knex';

/** The contract's `user-project` value of an admin log: a member as it stands in a transaction. */
export async function memberValue(
  trx: Knex.Transaction,
  projectId: number,
  userId: number,
): Promise<Record<string, unknown> | null> {
  const row = await trx('project_memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .leftJoin('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.project_id': projectId, 'm.user_id': userId })
    .first(
      'm.id',
      'u.id as user_id',
      'u.email',
      'u.username',
      'm.permission_level',
      'm.tags',
      'r.name as role_name',
    );
  if (!row) return null;
  const teams: { name: string }[] = await trx('project_membership_teams as mt')
    .join('teams as t', 't.id', 'mt.team_id')
    .where('mt.membership_id', row.id)
    .orderBy('t.name')
    .select('t.name');
  return {
    user: { object: 'user', email: row.email, id: row.user_id, username: row.username },
    permissionLevel: row.permission_level,
    tags: Object.entries((row.tags ?? {}) as Record<string, string>).map(([key, value]) => ({
      key,
      value,
    })),
    ...(row.role_name ? { role: { object: 'role', name: row.role_name } } : {}),
    teams: teams.map((team) => ({ object: 'team', name: team.name })),
  };
}

/** The contract's `environment` value of an admin log. */
export function environmentValue(row: {
  name: string;
  code_customization_version: number;
}): Record<string, unknown> {
  return { name: row.name, codeCustomizationVersion: row.code_customization_version };
}
