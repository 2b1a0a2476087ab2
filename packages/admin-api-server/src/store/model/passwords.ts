import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Knex } from 'knex';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  length: number,
) => Promise<Buffer>;

/** The shortest password the login accepts. */
export const MIN_PASSWORD_LENGTH = 12;
/** The longest password accepted (scrypt's cost grows with it). */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * Stores a user's password as `scrypt$<salt>$<hash>` (hex); the password itself is never kept.
 * Session tokens issued before are revoked, and unused invitation or reset links voided. Only the
 * account's owner (a one-time link, their current password) or the operator's CLI calls this.
 */
export async function setUserPassword(
  knex: Knex | Knex.Transaction,
  userId: number,
  password: string,
): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new RangeError(
      `A password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
    );
  }
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  await knex('users')
    .where({ id: userId })
    .update({
      password_hash: `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`,
      sessions_valid_after: new Date(),
    });
  await knex('account_tokens')
    .where({ user_id: userId })
    .whereNull('used_at')
    .update({ used_at: knex.fn.now() });
}

/**
 * The user with this email and password, if both match. The time spent does not tell whether
 * the email exists.
 */
export async function verifyUserPassword(
  knex: Knex,
  email: string,
  password: string,
): Promise<{ id: number; email: string } | undefined> {
  const row = await knex('users')
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id', 'email', 'password_hash');
  const [, saltHex, hashHex] = String(row?.password_hash ?? 'scrypt$00$00').split('$');
  const expected = Buffer.from(hashHex ?? '', 'hex');
  const actual = await scrypt(password, Buffer.from(saltHex ?? '', 'hex'), 32);
  const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
  return row?.password_hash && matches ? { id: row.id, email: row.email } : undefined;
}
