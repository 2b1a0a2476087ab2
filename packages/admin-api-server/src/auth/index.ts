export { requireApplicationToken } from './require-application-token';
export { requireSession } from './require-session';
export {
  signApplicationToken,
  signSessionToken,
  verifyPlatformToken,
  bearerToken,
  generateTokenId,
  hashTokenId,
  TOKEN_ALGORITHM,
  type ApplicationTokenClaims,
  type SessionTokenClaims,
} from './platform-tokens';
export { SCOPES, hasScope, parseScopes, type Scope } from './scopes';
