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

/** Stores a user's password as `scrypt$<salt>$<hash>` (hex); the password itself is never kept. */
export async function setUserPassword(knex: Knex, userId: number, password: string): Promise<void> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  await knex('users')
    .where({ id: userId })
    .update({ password_hash: `scrypt$${salt.toString('hex')}$${hash.toString('hex')}` });
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
