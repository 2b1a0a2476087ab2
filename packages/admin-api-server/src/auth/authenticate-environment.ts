import type { Request } from 'express';
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import {
  findEnvironmentBySecret,
  type AuthenticatedEnvironment,
} from '../store/model/environment-secrets';

const ENV_SECRET = /^[0-9a-f]{64}$/;

/**
 * The environment of an agent call, from its `forest-secret-key` header (or, for OIDC
 * registration, `Authorization: Bearer <secret>`). A missing, malformed or unknown secret gets
 * the same 401, so the answer never tells whether an environment exists.
 */
export async function authenticateEnvironment(
  knex: Knex,
  request: Request,
): Promise<AuthenticatedEnvironment> {
  const secret =
    request.get('forest-secret-key') ??
    request.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const environment =
    secret !== undefined && ENV_SECRET.test(secret)
      ? await findEnvironmentBySecret(knex, secret)
      : undefined;
  if (!environment) {
    throw new ApiError(
      401,
      'unauthorized',
      'The env secret is missing or not valid: send the 64-hex-character env secret of an environment in the forest-secret-key header.',
    );
  }
  return environment;
}
