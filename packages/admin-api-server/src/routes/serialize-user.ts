import type { PublicApiUser } from '@canopy/platform-protocol';

/** The contract's `user` object. */
export type UserItem = PublicApiUser;

/** Builds a `user` object from joined columns. */
export function userItem(id: number, email: string, username: string): UserItem {
  return { object: 'user', email, id, username };
}
