import type { Knex } from 'knex';
import type { SigningKey } from '../config';
import { ApiError } from '../errors';
import { verifyMcpToken } from './mcp-tokens';

/** The user behind an OIDC access token, as `GET /liana/v2/renderings/:id/authorization` shows it. */
export interface RenderingUser {
  id: number;
  attributes: {
    email: string;
    first_name: string;
    last_name: string;
    teams: string[];
    role: string | null;
    permission_level: string;
    tags: { key: string; value: string }[];
  };
}

/**
 * The user and environment behind a user platform token: an MCP platform token, or an OIDC
 * access token issued to one of an environment's agents.
 *
 * @throws ApiError 401 for an unknown, expired or malformed token.
 */
export async function resolveUserAccessToken(
  knex: Knex,
  keys: readonly SigningKey[],
  accessToken: string,
): Promise<{ userId: number; environmentId: number }> {
  const mcp = verifyMcpToken(keys, accessToken, 'mcp-access');
  if (mcp) return { userId: mcp.userId, environmentId: mcp.environmentId };
  // oidc-provider's opaque tokens are short base64url strings; anything else cannot be one.
  const token = !/^[\w-]{1,512}$/.test(accessToken)
    ? undefined
    : await knex('oidc_payloads')
        .where({ model: 'AccessToken', id: accessToken })
        .andWhere('expires_at', '>', knex.fn.now())
        .first('payload');
  const client =
    token &&
    (await knex('oidc_payloads')
      .where({ model: 'Client', id: token.payload.clientId })
      .first('payload'));
  const environmentId = Number(client?.payload.canopy_environment_id);
  if (!token || !Number.isInteger(environmentId)) {
    throw new ApiError(
      401,
      'unauthorized',
      'The user access token is unknown or expired; log in again.',
    );
  }
  return { userId: Number(token.payload.accountId), environmentId };
}

/**
 * The user id behind a user access token of this environment: an OIDC access token issued to
 * one of its agents, or an MCP platform token issued for it.
 *
 * @throws ApiError 401 for an unknown, expired or foreign token.
 */
export async function accessTokenUser(
  knex: Knex,
  keys: readonly SigningKey[],
  environment: { id: number },
  accessToken: string,
): Promise<number> {
  const resolved = await resolveUserAccessToken(knex, keys, accessToken);
  if (resolved.environmentId !== environment.id) {
    throw new ApiError(
      401,
      'unauthorized',
      'The user access token is unknown or expired; log in again.',
    );
  }
  return resolved.userId;
}

/**
 * The user info of `GET /liana/v2/renderings/:id/authorization`, once they may use the
 * rendering (a team of theirs in this project).
 *
 * @throws ApiError 403 when the rendering is not one of the user's teams.
 */
export async function renderingUser(
  knex: Knex,
  environment: { id: number; projectId: number },
  userId: number,
  renderingId: number,
): Promise<RenderingUser> {
  const member = await knex('project_memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .leftJoin('roles as r', 'r.id', 'm.role_id')
    .where({ 'm.project_id': environment.projectId, 'm.user_id': userId })
    .first(
      'm.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'm.permission_level',
      'm.tags',
      'r.name as role',
    );
  const teams: { id: number; name: string }[] = member
    ? await knex('project_membership_teams as mt')
        .join('teams as t', 't.id', 'mt.team_id')
        .where('mt.membership_id', member.id)
        .orderBy('t.id')
        .select('t.id', 't.name')
    : [];
  if (!member || !teams.some((team) => team.id === renderingId)) {
    throw new ApiError(
      403,
      'forbidden',
      `This user may not use rendering ${renderingId}: it is not one of their teams in this project.`,
    );
  }
  const rendering = teams.find((team) => team.id === renderingId)!;
  return {
    id: userId,
    attributes: {
      email: member.email,
      first_name: member.first_name,
      last_name: member.last_name,
      // The rendering's team first: the agent takes the first entry as the session's team.
      teams: [
        rendering.name,
        ...teams.filter((team) => team !== rendering).map((team) => team.name),
      ],
      role: member.role ?? null,
      permission_level: member.permission_level,
      tags: Object.entries((member.tags ?? {}) as Record<string, string>).map(([key, value]) => ({
        key,
        value,
      })),
    },
  };
}
