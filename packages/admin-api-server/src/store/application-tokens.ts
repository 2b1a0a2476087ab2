import type { ApplicationTokenScope } from '@canopy/platform-protocol';
import type { Knex } from 'knex';
import { publishAccessChange } from './access-changes';

/** An application token as stored (never the token itself). */
export interface ApplicationTokenRow {
  id: number;
  project_id: number;
  user_id: number;
  name: string;
  /** Validated against the scope list when the token is issued. */
  scopes: ApplicationTokenScope[];
  created_with_sso: boolean;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = [
  'id',
  'project_id',
  'user_id',
  'name',
  'scopes',
  'created_with_sso',
  'created_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
];

/** Inserts a token row. */
export async function insertApplicationToken(
  knex: Knex,
  input: {
    projectId: number;
    userId: number;
    name: string;
    tokenIdHash: string;
    scopes: string[];
    createdWithSso: boolean;
    expiresAt: Date;
  },
): Promise<ApplicationTokenRow> {
  const [row] = await knex('application_tokens')
    .insert({
      project_id: input.projectId,
      user_id: input.userId,
      name: input.name,
      token_id_hash: input.tokenIdHash,
      scopes: input.scopes,
      created_with_sso: input.createdWithSso,
      expires_at: input.expiresAt,
    })
    .returning(COLUMNS);
  return row as ApplicationTokenRow;
}

/** The row of a token id hash, revoked or not. */
export async function findApplicationTokenByHash(
  knex: Knex,
  tokenIdHash: string,
): Promise<ApplicationTokenRow | undefined> {
  return knex('application_tokens').where({ token_id_hash: tokenIdHash }).first(COLUMNS);
}

/** Tokens of a project that are not revoked, newest first. */
export async function listApplicationTokens(
  knex: Knex,
  projectId: number,
): Promise<(ApplicationTokenRow & { user_email: string })[]> {
  return knex('application_tokens as t')
    .join('users as u', 'u.id', 't.user_id')
    .where({ 't.project_id': projectId })
    .whereNull('t.revoked_at')
    .orderBy('t.id', 'desc')
    .select(...COLUMNS.map((column) => `t.${column}`), 'u.email as user_email');
}

/**
 * Marks a token revoked; false when no such live token exists (in that project, if given). The
 * revocation is announced with it ({@link publishAccessChange}): every server process refuses the
 * token from the moment it commits.
 */
export async function revokeApplicationToken(
  knex: Knex,
  id: number,
  projectId?: number,
): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const query = trx('application_tokens').where({ id }).whereNull('revoked_at');
    if (projectId !== undefined) query.andWhere({ project_id: projectId });
    const revoked = (await query.update({ revoked_at: trx.fn.now() })) > 0;
    if (revoked) await publishAccessChange(trx);
    return revoked;
  });
}

/**
 * Records a use of the token. Written at most once a minute per token, so that busy integrations
 * do not turn every read into a write; "last used" is therefore accurate to the minute.
 */
export async function touchApplicationToken(knex: Knex, id: number): Promise<void> {
  await knex('application_tokens')
    .where({ id })
    .andWhere((q) =>
      q.whereNull('last_used_at').orWhereRaw("last_used_at < now() - interval '1 minute'"),
    )
    .update({ last_used_at: knex.fn.now() });
}

/** A token row with what authorizing a request needs, read in one query. */
export interface TokenContextRow extends ApplicationTokenRow {
  project_name: string;
  project_sso_enabled: boolean;
  /** The creator's current permission level on the token's project, if still a member. */
  permission_level: string | null;
  /** The environment of that name in the token's project, if asked for and existing. */
  environment_id: number | null;
  environment_type: 'development' | 'production' | null;
}

/**
 * The token of a hash with its project, its creator's membership and (by name) an environment of
 * its project: the whole authorization of a request in one round trip.
 */
export async function findTokenContext(
  knex: Knex,
  tokenIdHash: string,
  environmentName: string | undefined,
): Promise<TokenContextRow | undefined> {
  return knex('application_tokens as t')
    .join('projects as p', 'p.id', 't.project_id')
    .leftJoin('project_memberships as m', (join) => {
      join.on('m.project_id', 't.project_id').andOn('m.user_id', 't.user_id');
    })
    .leftJoin('environments as e', (join) => {
      join.on('e.project_id', 't.project_id').andOnVal('e.name', environmentName ?? '');
    })
    .where('t.token_id_hash', tokenIdHash)
    .first(
      ...COLUMNS.map((column) => `t.${column}`),
      'p.name as project_name',
      'p.sso_enabled as project_sso_enabled',
      'm.permission_level',
      'e.id as environment_id',
      'e.type as environment_type',
    );
}
