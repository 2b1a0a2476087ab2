import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { setUserPassword } from './passwords';

/** What a one-time account token lets its holder do: set the password of one account. */
export type AccountTokenPurpose = 'invitation' | 'reset';

/** How long a token stays usable: invitations a week, resets an hour. */
export const ACCOUNT_TOKEN_LIFETIME_MS: Record<AccountTokenPurpose, number> = {
  invitation: 7 * 86_400_000,
  reset: 3_600_000,
};

/** A token just issued: the token itself is shown once and only its SHA-256 is stored. */
export interface IssuedAccountToken {
  readonly token: string;
  readonly purpose: AccountTokenPurpose;
  readonly expiresAt: Date;
}

const hashAccountToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Issues a one-time token that lets the holder set the password of `userId`; earlier unused
 * tokens of the account are voided, so only the newest link works.
 *
 * @example
 * const { token } = await issueAccountToken(knex, user.id, 'invitation');
 */
export async function issueAccountToken(
  knex: Knex | Knex.Transaction,
  userId: number,
  purpose: AccountTokenPurpose,
): Promise<IssuedAccountToken> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ACCOUNT_TOKEN_LIFETIME_MS[purpose]);
  await knex('account_tokens')
    .where({ user_id: userId })
    .whereNull('used_at')
    .update({ used_at: knex.fn.now() });
  await knex('account_tokens').insert({
    user_id: userId,
    purpose,
    token_hash: hashAccountToken(token),
    expires_at: expiresAt,
  });
  return { token, purpose, expiresAt };
}

/**
 * Sets the password of the account a one-time token names, and uses the token up (whatever
 * process asks, only one redemption wins). Sessions issued before are revoked.
 *
 * @returns the account, or undefined when the token is unknown, used or expired.
 */
export async function redeemAccountToken(
  knex: Knex,
  token: string,
  password: string,
): Promise<{ userId: number; email: string } | undefined> {
  return knex.transaction(async (trx) => {
    const [row] = await trx('account_tokens')
      .where({ token_hash: hashAccountToken(token) })
      .whereNull('used_at')
      .where('expires_at', '>', trx.fn.now())
      .update({ used_at: trx.fn.now() })
      .returning(['user_id']);
    if (!row) return undefined;
    await setUserPassword(trx, row.user_id, password);
    const user = await trx('users').where({ id: row.user_id }).first('email');
    return { userId: row.user_id as number, email: user.email as string };
  });
}

/** Whether the account has a password yet (an invited user who never accepted has none). */
export async function hasPassword(knex: Knex, userId: number): Promise<boolean> {
  const row = await knex('users').where({ id: userId }).first('password_hash');
  return Boolean(row?.password_hash);
}
