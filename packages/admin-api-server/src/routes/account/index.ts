import { Router, type Request, type RequestHandler, type Response } from 'express';
import { authenticateSession, revokeSession, type Session } from '../../auth';
import { authenticateUser } from '../../auth/require-session';
import { clientAddress, limitedMessage } from '../../auth/login-limiter';
import { ApiError, unauthorized } from '../../errors';
import { formBody, jsonBody } from '../../http/body';
import type { ServerContext } from '../../context';
import { redeemAccountToken } from '../../store/model/account-tokens';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  setUserPassword,
} from '../../store/model/passwords';
import { bodyParser } from '../../validation/ajv';
import { passwordPage, PASSWORD_PAGE_PATH } from './password-page';
import * as schemas from './schemas';

const parse = {
  redeem: bodyParser<{ token: string; password: string }>(schemas.REDEEM_TOKEN_BODY),
  change: bodyParser<{ currentPassword: string; newPassword: string }>(
    schemas.CHANGE_PASSWORD_BODY,
  ),
  revoke: bodyParser<{ everywhere: boolean }>(schemas.REVOKE_SESSIONS_BODY),
};

const tooMany = (seconds: number) =>
  new ApiError(429, 'rate_limited', limitedMessage(seconds), {
    headers: { 'Retry-After': String(seconds) },
  });

/**
 * Redeems an invitation or reset token from `address`; failed redemptions count against the
 * address, like failed sign-ins.
 *
 * @returns 'done', 'invalid' (unknown, used or expired token) or the seconds to wait.
 */
async function redeem(
  ctx: ServerContext,
  address: string,
  token: string,
  password: string,
): Promise<'done' | 'invalid' | number> {
  const counter = ctx.loginLimiter.tokenFailures;
  const wait = await counter.blockedFor(address);
  if (wait !== undefined) return wait;
  if (await redeemAccountToken(ctx.knex, token, password)) return 'done';
  await counter.record(address);
  return 'invalid';
}

const INVALID_TOKEN =
  'This link is unknown, already used or expired; ask for a new invitation or reset link.';

/**
 * A user's own account: set the password from an invitation or reset link (JSON and the HTML page
 * the link opens), change it while signed in (the current password is checked through the login
 * limiter), and revoke sessions. Nobody else's account can be touched here: the credential is the
 * one-time token or the user's own session.
 */
export function accountRouter(ctx: ServerContext): Router {
  const form = formBody();
  // The one-time token is the only credential of the first route, so its body is read with a small
  // limit; the others read theirs once the session is known.
  const json = jsonBody('16kb');
  const signedIn: RequestHandler = async (req, res, next) => {
    res.locals.session = await authenticateSession(ctx, req);
    next();
  };
  // A session token, or the console's access token (the Console's "Change password").
  const signedInUser: RequestHandler = async (req, res, next) => {
    res.locals.user = await authenticateUser(ctx, req);
    next();
  };
  const sessionOf = (res: Response) => res.locals.session as Session;
  return Router()
    .post('/v1/account/password', json, async (req, res) => {
      const { token, password } = parse.redeem(req.body);
      const result = await redeem(ctx, clientAddress(req), token, password);
      if (typeof result === 'number') throw tooMany(result);
      if (result === 'invalid') throw new ApiError(400, 'invalid_token', INVALID_TOKEN);
      res.status(204).end();
    })
    .put('/v1/account/password', signedInUser, json, async (req, res) => {
      const { userId } = res.locals.user as { userId: number };
      const { currentPassword, newPassword } = parse.change(req.body);
      const user = await ctx.knex('users').where({ id: userId }).first('email');
      const outcome = await ctx.loginLimiter.attempt({
        email: user.email,
        password: currentPassword,
        address: clientAddress(req),
      });
      if (outcome.kind === 'limited') throw tooMany(outcome.retryAfterSeconds);
      if (outcome.kind === 'wrong') throw unauthorized('The current password is wrong.');
      await setUserPassword(ctx.knex, userId, newPassword);
      res.status(204).end();
    })
    .post('/v1/account/sessions/revoke', signedIn, json, async (req, res) => {
      const session = sessionOf(res);
      const { everywhere } = parse.revoke(req.body ?? {});
      await revokeSession(ctx.knex, session, everywhere);
      res.status(204).end();
    })
    .get(PASSWORD_PAGE_PATH, (req: Request, res: Response) => {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      // The token is in the URL: keep it out of caches and of the Referer of any next page.
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      res.type('html').send(passwordPage(token));
    })
    .post(PASSWORD_PAGE_PATH, form, async (req: Request, res: Response) => {
      const { token, password } = (req.body ?? {}) as { token?: unknown; password?: unknown };
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).type('html');
      const given = typeof token === 'string' ? token : '';
      if (
        typeof password !== 'string' ||
        password.length < MIN_PASSWORD_LENGTH ||
        password.length > MAX_PASSWORD_LENGTH
      ) {
        res.status(400).send(
          passwordPage(given, {
            error: true,
            text: `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`,
          }),
        );
        return;
      }
      const result = await redeem(ctx, clientAddress(req), given, password);
      if (typeof result === 'number') {
        res
          .status(429)
          .set('Retry-After', String(result))
          .send(passwordPage(given, { error: true, text: limitedMessage(result) }));
        return;
      }
      if (result === 'invalid') {
        res.status(400).send(passwordPage(given, { error: true, text: INVALID_TOKEN }));
        return;
      }
      res.send(
        passwordPage('', {
          error: false,
          text: 'Your password is set. You can close this page and sign in.',
        }),
      );
    });
}
