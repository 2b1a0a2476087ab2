import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { formBody } from '../http/body';
import type { Provider } from 'oidc-provider';
import { authenticateEnvironment } from '../auth/authenticate-environment';
import { configuredPublicOrigin, type ServerContext } from '../context';
import { requirePublicHost } from './public-host';
import { attemptFormLogin, limitedNotice, typedEmail } from '../auth/login-limiter';
import { messageBox } from '../http/platform-page';
import { CLI_CLIENT_ID, CLI_SCOPES } from '../auth/cli-client';
import { CONSOLE_CLIENT_ID, CONSOLE_SCOPES } from '../auth/console-client';
import { loginPage } from './login-page';
import {
  createOidcProvider,
  DEFAULT_OIDC_OPTIONS,
  ENVIRONMENT_CLAIM,
  OIDC_PATH,
  REGISTRATION_LOCAL,
  type OidcRegistration,
} from './provider';

/** The parameters of an authorization response (RFC 6749 4.1.2 and 4.1.2.1, RFC 9207). */
const AUTHORIZATION_RESPONSE_PARAMETERS = [
  'code',
  'state',
  'iss',
  'error',
  'error_description',
] as const;

/** The scopes agents ask for (platform protocol 6.3). */
const AGENT_SCOPES = 'openid email profile';

/**
 * User login for agents (platform protocol section 6): the OIDC provider at `/oidc`, dynamic
 * registration authenticated by the env secret (the client is bound to that environment and
 * gets the platform's callback page as its only redirect URI), and the login form. A user signs
 * in with the email and password they set themselves (invitation link, reset link, or the
 * operator's CLI), through the limiter of failed attempts, and must be a member
 * of the project of the environment whose agent asked.
 *
 * The same provider logs developers in to canopy-cloud with the device flow (`/oidc/device/auth`,
 * then the verification page `/oidc/device` and the same login form). That login is bound to no
 * environment: any user with a password may sign in, and `GET /liana/environment` checks their
 * membership of the project of the env secret they look up.
 */
export function oidcRouter(ctx: ServerContext): Router {
  // One provider per server, for the issuer `<public origin>/oidc`: the request's Host never
  // names the issuer (requests naming another host are refused before they reach it).
  let loading: Promise<Provider> | undefined;
  const origin = () => configuredPublicOrigin(ctx)!;
  const providerFor = (): Promise<Provider> => {
    if (!loading) {
      const created = createOidcProvider(
        ctx.knex,
        `${origin()}${OIDC_PATH}`,
        ctx.config.signingKeys,
        ctx.config.trustProxy,
        {
          accessTokenTtlSeconds:
            ctx.config.oidcAccessTokenTtlSeconds ?? DEFAULT_OIDC_OPTIONS.accessTokenTtlSeconds,
          devicePollIntervalSeconds:
            ctx.config.oidcDevicePollIntervalSeconds ??
            DEFAULT_OIDC_OPTIONS.devicePollIntervalSeconds,
        },
      );
      created.catch(() => {
        if (loading === created) loading = undefined;
      });
      loading = created;
    }
    return loading;
  };

  const router = express.Router();
  router.use(OIDC_PATH, requirePublicHost(ctx));

  // The env secret is checked before the body is read.
  const registrant: RequestHandler = async (req, res, next) => {
    res.locals.environment = await authenticateEnvironment(ctx.knex, req);
    next();
  };
  // oidc-provider reads the registration body itself (no parser in front of it, so it never falls
  // back to an already parsed body); the client's redirect URI and environment are set by the
  // provider's client-metadata validator from what is kept here (src/oidc/provider.ts).
  router.post(`${OIDC_PATH}/reg`, registrant, (req, res, next) => {
    const environment = res.locals.environment as { id: number };
    const registration: OidcRegistration = {
      redirectUri: `${origin()}${OIDC_PATH}/callback`,
      environmentId: String(environment.id),
    };
    res.locals[REGISTRATION_LOCAL] = registration;
    // The env secret was the credential of this call; the provider must not read it as one.
    delete req.headers.authorization;
    next();
  });

  /** Whether the user may sign in to this client: any user for canopy-cloud and the console. */
  const mayUse = async (provider: Provider, clientId: string, userId: number) => {
    if (clientId === CLI_CLIENT_ID || clientId === CONSOLE_CLIENT_ID) return true;
    const client = await provider.Client.find(clientId);
    const environmentId = Number(client?.[ENVIRONMENT_CLAIM]);
    return Boolean(
      await ctx
        .knex('project_memberships as m')
        .join('environments as e', 'e.project_id', 'm.project_id')
        .where({ 'm.user_id': userId, 'e.id': environmentId })
        .first('m.id'),
    );
  };
  const scopesOf = (clientId: string) =>
    clientId === CLI_CLIENT_ID
      ? CLI_SCOPES
      : clientId === CONSOLE_CLIENT_ID
        ? CONSOLE_SCOPES
        : AGENT_SCOPES;
  const finishWithGrant = async (
    provider: Provider,
    req: Request,
    res: Response,
    userId: number,
    clientId: string,
  ) => {
    const grant = new provider.Grant({ accountId: String(userId), clientId });
    grant.addOIDCScope(scopesOf(clientId));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: String(userId) }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  router.get(`${OIDC_PATH}/interaction/:uid`, async (req, res) => {
    const provider = await providerFor();
    const details = await provider.interactionDetails(req, res);
    // Signed in already (the console's own login, then an agent's login in the same browser
    // session): the only prompt left is the consent to a first-party client, granted here for a
    // member of the agent's project. No form is shown; anything else asks for the password.
    const accountId = Number(details.session?.accountId);
    const clientId = String(details.params.client_id);
    if (
      details.prompt.name === 'consent' &&
      Number.isSafeInteger(accountId) &&
      accountId > 0 &&
      clientId !== CLI_CLIENT_ID &&
      (await mayUse(provider, clientId, accountId))
    ) {
      await finishWithGrant(provider, req, res, accountId, clientId);
      return;
    }
    res.type('html').send(loginPage(details.uid));
  });

  router.post(`${OIDC_PATH}/interaction/:uid/login`, formBody(), async (req, res) => {
    const provider = await providerFor();
    const details = await provider.interactionDetails(req, res);
    const outcome = await attemptFormLogin(ctx.loginLimiter, req);
    const user = outcome.kind === 'signed-in' ? outcome.user : undefined;
    const clientId = String(details.params.client_id);
    // canopy-cloud and console logins are bound to no environment (membership is checked per
    // lookup); an agent's login needs a member of the agent's project.
    const member = user && (await mayUse(provider, clientId, user.id));
    if (!user || !member) {
      if (outcome.kind === 'limited') res.set('Retry-After', String(outcome.retryAfterSeconds));
      res
        .status(outcome.kind === 'limited' ? 429 : 401)
        .type('html')
        .send(
          loginPage(details.uid, {
            alert:
              outcome.kind === 'limited'
                ? limitedNotice(outcome.retryAfterSeconds)
                : messageBox(
                    user
                      ? 'This account is not a member of the project of this agent.'
                      : 'Wrong email or password.',
                  ),
            email: typedEmail(req),
          }),
        );
      return;
    }
    await finishWithGrant(provider, req, res, user.id, clientId);
  });

  // The redirect URI of agent clients: the page a front end lands on after login. It hands the
  // authorization response over, to be passed to the agent's GET /forest/authentication/callback
  // as query parameters. Discovery advertises authorization_response_iss_parameter_supported
  // (RFC 9207, mix-up protection), so `iss` is part of that response: the reference agent refuses
  // a callback without it, and agents that do not check it ignore it (platform protocol 6.1).
  // A refused login (`error`, `error_description`) is handed over the same way.
  router.get(`${OIDC_PATH}/callback`, (req, res) => {
    const answer: Record<string, unknown> = { code: null, state: null, iss: null };
    for (const name of AUTHORIZATION_RESPONSE_PARAMETERS) {
      if (req.query[name] !== undefined) answer[name] = req.query[name];
    }
    res.json(answer);
  });

  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  router.use(OIDC_PATH, async (req, res) => {
    const current = await providerFor();
    let handle = handlers.get(current);
    if (!handle) {
      handle = current.callback();
      handlers.set(current, handle);
    }
    handle(req, res);
  });
  router.use(interactionErrorHandler);
  return router;
}

/**
 * OAuth errors of the interaction routes (unknown or expired interaction, for instance) as
 * `{error, error_description}` with their status; anything else goes on to the next handler.
 */
function interactionErrorHandler(
  error: unknown,
  _req: Request,
  res: Response,
  next: NextFunction,
): void {
  const failure = error as { status?: unknown; error?: unknown; error_description?: unknown };
  if (
    typeof failure.status === 'number' &&
    failure.status < 500 &&
    typeof failure.error === 'string'
  ) {
    res.status(failure.status).json({
      error: failure.error,
      error_description: String(failure.error_description ?? failure.error),
    });
    return;
  }
  next(error);
}
