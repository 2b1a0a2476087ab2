import type { Knex } from 'knex';
import type { SigningKey } from '../config';
import { generateTokenId, hashTokenId, signApplicationToken } from '../auth/platform-tokens';
import type { Scope } from '../auth/scopes';
import { forbidden } from '../errors';
import { insertApplicationToken, type ApplicationTokenRow } from '../store/application-tokens';
import { findPermissionLevel, type ProjectRow } from '../store/model';

/** What creating a token needs: who asks, for which project, and how. */
export interface IssueApplicationTokenInput {
  project: ProjectRow;
  userId: number;
  name: string;
  scopes: Scope[];
  expiresAt: Date;
  /** Whether the creator is logged in through SSO (required on SSO projects). */
  viaSso: boolean;
}

/**
 * Creates an application token after checking the rules of spec §5: the creator holds the Admin
 * role on the project, and on an SSO project is logged in through SSO. Returns the token (shown
 * once, never stored) and its row.
 */
export async function issueApplicationToken(
  knex: Knex,
  keys: readonly SigningKey[],
  input: IssueApplicationTokenInput,
): Promise<{ token: string; row: ApplicationTokenRow }> {
  const level = await findPermissionLevel(knex, input.project.id, input.userId);
  if (level !== 'admin') {
    throw forbidden(
      `Only a user holding the Admin role on project "${input.project.name}" can create tokens` +
        (level ? ` (this user is "${level}").` : ' (this user is not a member).'),
    );
  }
  if (input.project.sso_enabled && !input.viaSso) {
    throw forbidden(
      `Project "${input.project.name}" uses SSO: create the token while logged in through SSO.`,
    );
  }
  const tokenId = generateTokenId();
  const row = await insertApplicationToken(knex, {
    projectId: input.project.id,
    userId: input.userId,
    name: input.name,
    tokenIdHash: hashTokenId(tokenId),
    scopes: input.scopes,
    createdWithSso: input.viaSso,
    expiresAt: input.expiresAt,
  });
  const token = signApplicationToken(keys, {
    tokenId,
    userId: input.userId,
    projectId: input.project.id,
    expiresAt: input.expiresAt,
  });
  return { token, row };
}
