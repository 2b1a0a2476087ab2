import { callerIdentity, type CallerIdentity, type PermissionLevel } from '../toolkit/caller';

/** The body of `GET /liana/v2/renderings/<id>/authorization` (platform protocol §6.5). */
export interface UserInfoBody {
  data?: {
    id?: unknown;
    attributes?: {
      email?: string;
      first_name?: string;
      last_name?: string;
      teams?: string[];
      role?: string;
      permission_level?: PermissionLevel;
      tags?: { key: string; value: string }[];
    };
  };
}

/**
 * The identity the platform's user info describes on `renderingId` (its first team, its tags as
 * an object, empty strings and the `user` level where a field is absent), or `null` when the body
 * has no integer `data.id` or no attributes.
 */
export function identityFromUserInfo(
  renderingId: number,
  body: UserInfoBody | undefined,
): CallerIdentity | null {
  const attributes = body?.data?.attributes;
  const id = Number(body?.data?.id);
  if (!attributes || !Number.isInteger(id)) return null;
  return callerIdentity({
    id,
    email: attributes.email ?? '',
    firstName: attributes.first_name ?? '',
    lastName: attributes.last_name ?? '',
    team: attributes.teams?.[0] ?? '',
    role: attributes.role ?? '',
    permissionLevel: attributes.permission_level ?? 'user',
    renderingId,
    tags: Object.fromEntries((attributes.tags ?? []).map(({ key, value }) => [key, value])),
  });
}
