import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { SigningKey } from '../config';
import { unauthorized } from '../errors';
import { PLATFORM_API_AUDIENCE } from './token-purposes';

// jsonwebtoken turns a string secret into a key on every call, first trying it as a public key
// (which throws): a few milliseconds per request. The key objects are made once per key.
const secretKeys = new WeakMap<SigningKey, KeyObject>();
function secretKeyOf(key: SigningKey): KeyObject {
  let secret = secretKeys.get(key);
  if (!secret) {
    secret = createSecretKey(Buffer.from(key.secret, 'utf8'));
    secretKeys.set(key, secret);
  }
  return secret;
}

/** The only algorithm accepted; pinned so that `alg: none` or RS/HS confusion cannot pass. */
export const TOKEN_ALGORITHM = 'HS256';
const ISSUER = 'canopy-admin-api';

/** Claims of an application token (bound to one project). */
export interface ApplicationTokenClaims {
  typ: 'application';
  /** Random token id; only its SHA-256 is stored. */
  jti: string;
  sub: string;
  prj: number;
  /** The platform API (absent on tokens signed before audiences were written). */
  aud?: string;
  exp: number;
}

/** Claims of a user session token (what a login produces; `sso` when logged in through SSO). */
export interface SessionTokenClaims {
  typ: 'session';
  /** Random token id, what revocation names (only its SHA-256 is stored); absent on old tokens. */
  jti?: string;
  sub: string;
  sso: boolean;
  /** Issue time in milliseconds, compared with the account's `sessions_valid_after`. */
  iat_ms?: number;
  iat?: number;
  /** The platform API (absent on tokens signed before audiences were written). */
  aud?: string;
  exp: number;
}

/** A fresh random token id (256 bits). */
export function generateTokenId(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a token id: what the database keeps. */
export function hashTokenId(tokenId: string): string {
  return createHash('sha256').update(tokenId).digest('hex');
}

function sign(payload: object, keys: readonly SigningKey[], expiresAt: Date): string {
  const key = keys[0];
  if (!key) throw new Error('No signing key is configured.');
  return jwt.sign(
    { ...payload, aud: PLATFORM_API_AUDIENCE, exp: Math.floor(expiresAt.getTime() / 1000) },
    key.secret,
    { algorithm: TOKEN_ALGORITHM, keyid: key.id, issuer: ISSUER },
  );
}

/** Signs an application token with the newest key. */
export function signApplicationToken(
  keys: readonly SigningKey[],
  input: { tokenId: string; userId: number; projectId: number; expiresAt: Date },
): string {
  return sign(
    { typ: 'application', jti: input.tokenId, sub: String(input.userId), prj: input.projectId },
    keys,
    input.expiresAt,
  );
}

/**
 * Signs a user session token. The login flow of the platform issues these; tests and the CLI
 * use this function directly.
 *
 * @example
 * const session = signSessionToken(config.signingKeys, { userId: 1, sso: false, expiresAt });
 */
export function signSessionToken(
  keys: readonly SigningKey[],
  input: { userId: number; sso: boolean; expiresAt: Date },
): string {
  return sign(
    {
      typ: 'session',
      jti: generateTokenId(),
      sub: String(input.userId),
      sso: input.sso,
      iat_ms: Date.now(),
    },
    keys,
    input.expiresAt,
  );
}

/** Tokens whose signature and claims were verified, per key set; checked again once expired. */
const verifiedTokens = new WeakMap<
  readonly SigningKey[],
  Map<string, ApplicationTokenClaims | SessionTokenClaims>
>();
/** Verified tokens remembered per key set (the oldest go first). */
const MAX_VERIFIED = 1_000;

/**
 * Verifies a bearer token: known key (by `kid`), HS256 only, issuer, expiry, the expected
 * `typ` and the platform API's audience. Every failure is a 401 whose message says what is wrong, never the token. A token that
 * passed is remembered (the same string, signed by the same keys, verifies the same way) until it
 * expires: a busy integration's requests skip the parse and HMAC. Revocation is not decided here.
 */
export function verifyPlatformToken<T extends ApplicationTokenClaims | SessionTokenClaims>(
  token: string,
  keys: readonly SigningKey[],
  type: T['typ'],
): T {
  let verified = verifiedTokens.get(keys);
  if (!verified) {
    verified = new Map();
    verifiedTokens.set(keys, verified);
  }
  const known = verified.get(token);
  if (known && known.typ === type && known.exp * 1000 > Date.now()) return known as T;
  const claims = verifyUncached<T>(token, keys, type);
  if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
  verified.set(token, claims);
  return claims;
}

/**
 * The `typ` a token claims, not verified: the claims remembered for it when it verified before
 * (the same token string holds the same claims), else its decoded payload's; `undefined` for a
 * string that is not a JWT with a string `typ`.
 */
export function claimedTokenType(token: string, keys: readonly SigningKey[]): string | undefined {
  const known = verifiedTokens.get(keys)?.get(token);
  if (known) return known.typ;
  const decoded = jwt.decode(token);
  return decoded && typeof decoded === 'object' && typeof decoded.typ === 'string'
    ? decoded.typ
    : undefined;
}

function verifyUncached<T extends ApplicationTokenClaims | SessionTokenClaims>(
  token: string,
  keys: readonly SigningKey[],
  type: T['typ'],
): T {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded.payload !== 'object') {
    throw unauthorized('The bearer token is malformed: it is not a JWT.');
  }
  if (decoded.header.alg !== TOKEN_ALGORITHM) {
    throw unauthorized(`The bearer token must be signed with ${TOKEN_ALGORITHM}.`);
  }
  const key = keys.find((candidate) => candidate.id === decoded.header.kid);
  if (!key) throw unauthorized('The bearer token was not signed by this server.');
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token, secretKeyOf(key), {
      algorithms: [TOKEN_ALGORITHM],
      issuer: ISSUER,
    }) as jwt.JwtPayload;
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) {
      throw unauthorized(
        `The bearer token expired at ${error.expiredAt.toISOString()}; create a new one.`,
        error,
      );
    }
    throw unauthorized('The bearer token signature or claims are invalid.', error);
  }
  // Tokens signed before audiences were written carry none; `typ` tells them apart.
  const wellFormed =
    claims.typ === type &&
    (claims.aud === undefined || claims.aud === PLATFORM_API_AUDIENCE) &&
    typeof claims.sub === 'string' &&
    /^[1-9]\d{0,9}$/.test(claims.sub) &&
    typeof claims.exp === 'number' &&
    (type === 'session' || (typeof claims.jti === 'string' && Number.isInteger(claims.prj)));
  if (!wellFormed) {
    throw unauthorized(
      type === 'application'
        ? 'The bearer token is not an application token.'
        : 'The bearer token is not a user session token.',
    );
  }
  return claims as T;
}

/** Reads `Authorization: Bearer <token>`; a 401 that says how to send it when absent. */
export function bearerToken(header: string | undefined): string {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw unauthorized('Missing bearer token: send the header "Authorization: Bearer <token>".');
  }
  return match[1]!;
}
