import type { Knex } from 'knex';

/** A user row. */
export interface UserRow {
  id: number;
  email: string;
  username: string;
}

/** Creates a user; the email is unique regardless of case. */
export async function createUser(
  knex: Knex,
  input: { email: string; username?: string },
): Promise<UserRow> {
  const [user] = await knex('users')
    .insert({ email: input.email, username: input.username ?? input.email.split('@')[0] })
    .returning(['id', 'email', 'username']);
  return user as UserRow;
}

/** Finds a user by email, regardless of case. */
export async function findUserByEmail(knex: Knex, email: string): Promise<UserRow | undefined> {
  return knex('users')
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id', 'email', 'username');
}
