export { requireApplicationToken } from './require-application-token';
export { requireSession, requireSessionOr } from './require-session';
export { projectNotAccessible } from '../errors';
export { authenticateSession, revokeSession, type Session } from './sessions';
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
