import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../store/model/passwords';
import type { JsonSchema } from '../../validation/ajv';

const PASSWORD: JsonSchema = {
  type: 'string',
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
};

/** `POST /v1/account/password`: an invitation or reset token and the new password. */
export const REDEEM_TOKEN_BODY: JsonSchema = {
  type: 'object',
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 200, description: 'The one-time token' },
    password: PASSWORD,
  },
  required: ['token', 'password'],
  additionalProperties: false,
};

/** `PUT /v1/account/password`: the signed-in user changes their own password. */
export const CHANGE_PASSWORD_BODY: JsonSchema = {
  type: 'object',
  properties: {
    currentPassword: { type: 'string', minLength: 1, maxLength: MAX_PASSWORD_LENGTH },
    newPassword: PASSWORD,
  },
  required: ['currentPassword', 'newPassword'],
  additionalProperties: false,
};

/** `POST /v1/account/sessions/revoke`. */
export const REVOKE_SESSIONS_BODY: JsonSchema = {
  type: 'object',
  properties: {
    everywhere: {
      type: 'boolean',
      default: false,
      description: 'Revoke every session of the account, not only this one',
    },
  },
  additionalProperties: false,
};
