import * as body from '../routes/account/schemas';
import type { JsonSchema } from '../validation/ajv';

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const TOO_MANY = {
  description: 'Too many failed attempts from this address (or for this account); see Retry-After',
  headers: { 'Retry-After': { schema: { type: 'string' } } },
  content: json(ref('Error')),
};
const INVALID = { description: 'Invalid body', content: json(ref('Error')) };
const UNAUTHORIZED = {
  description: 'Missing, invalid or revoked session token (or a wrong current password)',
  content: json(ref('AuthError')),
};

/**
 * A user's own account: set the password from a one-time invitation or reset token, change it,
 * revoke sessions. No route here acts on another user's account.
 */
export function accountPaths(): Record<string, Record<string, unknown>> {
  return {
    '/v1/account/password': {
      post: {
        operationId: 'setPasswordWithToken',
        summary:
          'Set your password with a one-time invitation or reset token (expires; used once; failed attempts are limited per address)',
        tags: ['account'],
        security: [],
        requestBody: { required: true, content: json(body.REDEEM_TOKEN_BODY) },
        responses: {
          '204': { description: 'The password is set; earlier sessions are revoked' },
          '400': {
            description: 'Invalid body, or a token unknown, used or expired (`invalid_token`)',
            content: json(ref('Error')),
          },
          '429': TOO_MANY,
        },
      },
      put: {
        operationId: 'changePassword',
        summary:
          "Change your own password (the current one is checked, with the login limits), with a session token or the console's access token",
        tags: ['account'],
        security: [{ sessionAuth: [] }, { consoleAuth: ['openid'] }],
        requestBody: { required: true, content: json(body.CHANGE_PASSWORD_BODY) },
        responses: {
          '204': { description: 'Changed; every session issued before is revoked' },
          '400': INVALID,
          '401': UNAUTHORIZED,
          '429': TOO_MANY,
        },
      },
    },
    '/v1/account/sessions/revoke': {
      post: {
        operationId: 'revokeSessions',
        summary: 'Sign out: revoke this session token, or every session of the account',
        tags: ['account'],
        security: [{ sessionAuth: [] }],
        requestBody: { required: false, content: json(body.REVOKE_SESSIONS_BODY) },
        responses: {
          '204': { description: 'Revoked: the token(s) are refused from the next request on' },
          '400': INVALID,
          '401': UNAUTHORIZED,
        },
      },
    },
  };
}
