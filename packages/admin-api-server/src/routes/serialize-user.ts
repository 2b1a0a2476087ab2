/** The contract's `user` object. */
export interface UserItem {
  object: 'user';
  id: number;
  email: string;
  username: string;
}

/** Builds a `user` object from joined columns. */
export function userItem(id: number, email: string, username: string): UserItem {
  return { object: 'user', email, id, username };
}
