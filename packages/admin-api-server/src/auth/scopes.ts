import { APPLICATION_TOKEN_SCOPES, type ApplicationTokenScope } from '@canopy/platform-protocol';

/** Scopes of application tokens (spec §5; defined in @canopy/platform-protocol). */
export const SCOPES = APPLICATION_TOKEN_SCOPES;
/** One scope. */
export type Scope = ApplicationTokenScope;

/** True when `granted` includes `needed` or `all`. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('all') || granted.includes(needed);
}

/** Parses a comma-separated scope list, naming any unknown scope. */
export function parseScopes(raw: string): Scope[] {
  const scopes = raw
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new Error(
      `${unknown.length > 0 ? `Unknown scope(s) ${unknown.join(', ')}` : 'No scope given'}; ` +
        `use a comma-separated list of ${SCOPES.join(', ')}.`,
    );
  }
  return [...new Set(scopes)] as Scope[];
}
