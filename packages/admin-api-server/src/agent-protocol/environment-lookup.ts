import type { Request } from 'express';
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import { findCliAccessToken } from '../auth/cli-client';
import {
  findEnvironmentBySecret,
  type AuthenticatedEnvironment,
} from '../store/model/environment-secrets';

const ENV_SECRET = /^[0-9a-f]{64}$/;

/**
 * Whether a `GET /liana/environment` call comes from canopy-cloud: it sends the env secret and a
 * developer's access token (agents send the env secret only).
 */
export function isDeveloperLookup(request: Request): boolean {
  return (
    request.get('forest-secret-key') !== undefined && request.get('authorization') !== undefined
  );
}

/**
 * The environment a developer looks up with canopy-cloud (`forest-secret-key` and
 * `Authorization: Bearer <access token of a device login>`). The token is checked first, so the
 * answer says nothing about the secret to a caller without a valid login.
 *
 * @throws ApiError 401 for a missing, invalid, expired or revoked access token; 404 when no
 *   environment has the secret (malformed or unknown alike); 403 when the developer is not a
 *   member of the environment's project.
 */
export async function developerEnvironment(
  knex: Knex,
  request: Request,
): Promise<AuthenticatedEnvironment> {
  const bearer = request.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const token = bearer === undefined ? undefined : await findCliAccessToken(knex, bearer);
  if (!token) {
    throw new ApiError(
      401,
      'unauthorized',
      'The access token is invalid, expired or revoked; log in again with canopy-cloud login.',
    );
  }
  const secret = request.get('forest-secret-key') ?? '';
  const environment = ENV_SECRET.test(secret)
    ? await findEnvironmentBySecret(knex, secret)
    : undefined;
  if (!environment) {
    throw new ApiError(404, 'environment_not_found', 'No environment has this env secret.');
  }
  const member = await knex('project_memberships')
    .where({ project_id: environment.projectId, user_id: token.userId })
    .first('id');
  if (!member) {
    throw new ApiError(
      403,
      'forbidden',
      'You are not a member of the project of this environment; ask one of its admins to invite you.',
    );
  }
  return environment;
}

/**
 * The environment as `GET /liana/environment` describes it (JSON:API): name, `api_endpoint`, and
 * its project as a relationship with the project resource included.
 */
export async function environmentDocument(
  knex: Knex,
  environment: AuthenticatedEnvironment,
): Promise<unknown> {
  const row = await knex('environments as e')
    .join('projects as p', 'p.id', 'e.project_id')
    .where('e.id', environment.id)
    .first('e.api_endpoint', 'p.name as project_name');
  const projectId = String(environment.projectId);
  return {
    data: {
      type: 'environments',
      id: String(environment.id),
      attributes: { name: environment.name, api_endpoint: row?.api_endpoint ?? null },
      relationships: { project: { data: { type: 'projects', id: projectId } } },
    },
    included: [
      { type: 'projects', id: projectId, attributes: { name: row?.project_name ?? null } },
    ],
  };
}
