import type { PlatformUser, RenderingPermissionsJson } from '../../platform/permission-source';
import type { SessionClaims } from '../session-claims';

/** The values `{{currentUser.…}}` placeholders resolve to (platform protocol §5.6). */
export type ContextVariables = Readonly<Record<string, unknown>>;

/** Builds the context variables of a user: the platform's user record, else the token claims. */
export function buildContextVariables(
  claims: SessionClaims,
  user: PlatformUser | undefined,
  team: RenderingPermissionsJson['team'] | undefined,
): ContextVariables {
  const variables: Record<string, unknown> = {
    'currentUser.id': user?.id ?? claims.id,
    'currentUser.email': user?.email ?? claims.email,
    'currentUser.firstName': user?.firstName ?? claims.firstName,
    'currentUser.lastName': user?.lastName ?? claims.lastName,
    'currentUser.fullName': user?.fullName ?? `${claims.firstName} ${claims.lastName}`,
    'currentUser.permissionLevel': user?.permissionLevel ?? claims.permissionLevel,
    'currentUser.roleId': user?.roleId,
  };
  for (const [key, value] of Object.entries(user?.tags ?? claims.tags ?? {})) {
    variables[`currentUser.tags.${key}`] = value;
  }
  for (const [key, value] of Object.entries(team ?? {}))
    variables[`currentUser.team.${key}`] = value;
  return variables;
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/**
 * Replaces placeholders inside every string of a JSON value (scopes, chart filters). A string
 * that is exactly one placeholder takes the variable's value as a string; unknown placeholders
 * are left as they are.
 */
export function injectContextVariables<T>(value: T, variables: ContextVariables): T {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (match, name: string) =>
      name in variables && variables[name] !== undefined ? String(variables[name]) : match,
    ) as T;
  }
  if (Array.isArray(value))
    return value.map((item) => injectContextVariables(item, variables)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, injectContextVariables(item, variables)]),
    ) as T;
  }
  return value;
}
