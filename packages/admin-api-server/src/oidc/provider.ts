import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type {
  Configuration,
  KoaContextWithOIDC,
  Provider,
  errors as OidcErrors,
} from 'oidc-provider';
import { PLATFORM_API_AUDIENCE, TOKEN_TYPES, type TokenType } from '../auth/token-purposes';
import type { SigningKey } from '../config';
import { MAX_JSON_DEPTH } from '../http/body';
import { CLI_CLIENT, CLI_CLIENT_ID } from '../auth/cli-client';
import { consoleClient, CONSOLE_CLIENT_ID } from '../auth/console-client';
import { deviceCodeInputPage, deviceConfirmPage, deviceSuccessPage } from './device-pages';
import { logoutConfirmPage, logoutDonePage } from './logout-pages';
import { postgresAdapter } from '../store/oidc-postgres-adapter';
import { loadSigningKeys } from './signing-keys';

/** Where the agents' OIDC provider is mounted. */
export const OIDC_PATH = '/oidc';

/** Client metadata naming the environment whose agent registered the client. */
export const ENVIRONMENT_CLAIM = 'canopy_environment_id';

/** Where the registration route keeps, in `res.locals`, what the registered client is bound to. */
export const REGISTRATION_LOCAL = 'canopyOidcRegistration';

/** The redirect URI and environment a dynamically registered agent client gets, whatever it asks. */
export interface OidcRegistration {
  redirectUri: string;
  environmentId: string;
}

/** Lifetimes and pacing of the provider that the server configuration may change. */
export interface OidcProviderOptions {
  /** Lifetime of access tokens (agents' users and canopy-cloud logins), in seconds. */
  readonly accessTokenTtlSeconds: number;
  /** The `interval` device authorizations advertise (RFC 8628 §3.2), in seconds. */
  readonly devicePollIntervalSeconds: number;
}

/** Defaults of {@link OidcProviderOptions}: access tokens live 1 hour; canopy-cloud polls every 5 s. */
export const DEFAULT_OIDC_OPTIONS: OidcProviderOptions = {
  accessTokenTtlSeconds: 3600,
  devicePollIntervalSeconds: 5,
};

/** Lifetime of the device code, and so of the user code shown by canopy-cloud. */
const DEVICE_CODE_TTL = 600;
/** Lifetime of canopy-cloud's refresh tokens (each refresh issues a new one) and of its grants. */
const CLI_REFRESH_TOKEN_TTL = 14 * 24 * 3600;
const CLI_GRANT_TTL = 30 * 24 * 3600;
/** Lifetime of the grants of agents' users. */
const AGENT_GRANT_TTL = 8 * 3600;

/**
 * Builds the OpenID Connect provider (oidc-provider) agents log users in through — dynamic
 * registration of public clients, authorization code flow without PKCE (the agents send none),
 * RS256 ID tokens — and canopy-cloud logs developers in through: the device authorization grant
 * (RFC 8628) for the pre-registered public client `canopy-cloud`, with refresh tokens
 * (`offline_access`). Access tokens are opaque; everything is stored in PostgreSQL.
 */
export async function createOidcProvider(
  knex: Knex,
  issuer: string,
  signingKeys: readonly SigningKey[],
  trustProxy: boolean,
  options: OidcProviderOptions = DEFAULT_OIDC_OPTIONS,
): Promise<Provider> {
  const configuration: Configuration = {
    adapter: postgresAdapter(knex),
    jwks: { keys: await loadSigningKeys(knex) },
    // Cookie keys derived from the token signing keys: every process signs cookies alike.
    cookies: {
      keys: signingKeys.map((key) =>
        createHash('sha256').update(`oidc-cookies:${key.secret}`).digest('hex'),
      ),
    },
    features: {
      registration: { enabled: true },
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // RFC 7009: canopy-cloud (or an admin script) revokes a login by its refresh token.
      revocation: {
        enabled: true,
        // A client revokes its own tokens only (others' are ignored, as RFC 7009 §2.2 allows).
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      // RP-initiated logout (the console's "Sign out"): our pages instead of the library's default.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = logoutConfirmPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = logoutDonePage();
        },
      },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: async (ctx, _form, _out, error) => {
          ctx.type = 'html';
          ctx.body = deviceCodeInputPage({
            action: ctx.oidc.urlFor('code_verification'),
            xsrf: String(ctx.oidc.session?.state?.secret ?? ''),
            userCode: (error as { userCode?: string } | undefined)?.userCode,
            error: error && describeDeviceError(error),
          });
        },
        userCodeConfirmSource: async (ctx, _form, _client, _deviceInfo, userCode) => {
          ctx.type = 'html';
          ctx.body = deviceConfirmPage({
            action: ctx.oidc.urlFor('code_verification'),
            xsrf: String(ctx.oidc.session?.state?.secret ?? ''),
            userCode,
          });
        },
        successSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = deviceSuccessPage();
        },
      },
    },
    clients: [CLI_CLIENT, consoleClient(issuer)],
    extraClientMetadata: {
      properties: [ENVIRONMENT_CLAIM],
      // On registration the client gets the platform's callback page and the environment whose
      // env secret authenticated the call (kept by the express route in front), and a body
      // nesting too deep or holding NUL characters is refused before anything is stored.
      validator(ctx, key, _value, metadata) {
        if (key !== ENVIRONMENT_CLAIM || ctx?.oidc?.route !== 'registration') return;
        const locals = (ctx.res as unknown as { locals?: Record<string, unknown> }).locals;
        const registration = locals?.[REGISTRATION_LOCAL] as OidcRegistration | undefined;
        if (!registration) {
          throw new oidcErrors.InvalidClientMetadata('registration needs the env secret');
        }
        const problem = bodyProblem(ctx.oidc.body);
        if (problem) throw new oidcErrors.InvalidClientMetadata(problem);
        metadata.redirect_uris = [registration.redirectUri];
        metadata[ENVIRONMENT_CLAIM] = registration.environmentId;
      },
    },
    // Cross-origin calls from a browser (token, userinfo, revocation): a public client only from
    // the origin of one of its redirect URIs, a confidential one only to userinfo and from there
    // too; never from an opaque (`null`) origin. Written here rather than left to the library's
    // default, which says the same today.
    clientBasedCORS: (ctx, origin, client) =>
      origin !== 'null' &&
      (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') &&
      (client.redirectUris ?? []).some(
        (uri) => URL.canParse(uri) && new URL(uri).origin === origin,
      ),
    // Agents send no PKCE; the console (a public browser client) must.
    pkce: { required: (_ctx, client) => client.clientId === CONSOLE_CLIENT_ID },
    ttl: {
      AuthorizationCode: 60,
      DeviceCode: DEVICE_CODE_TTL,
      Interaction: 3600,
      Session: 8 * 3600,
      Grant: (_ctx, grant) => (grant.clientId === CLI_CLIENT_ID ? CLI_GRANT_TTL : AGENT_GRANT_TTL),
      AccessToken: options.accessTokenTtlSeconds,
      RefreshToken: CLI_REFRESH_TOKEN_TTL,
      IdToken: 3600,
    },
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'RS256',
    },
    claims: {
      openid: ['sub'],
      email: ['email'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Every access token names its purpose (src/auth/token-purposes.ts); the console's codes are
    // redeemed only by the browser whose platform login they came from.
    async extraTokenClaims(ctx, token) {
      if (token.kind !== 'AccessToken' || typeof token.clientId !== 'string') return undefined;
      if (token.clientId === CONSOLE_CLIENT_ID) await requireConsoleBrowser(ctx);
      return accessTokenPurpose(token.clientId);
    },
    interactions: { url: (_ctx, interaction) => `${OIDC_PATH}/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const user = await knex('users')
        .where({ id: Number(id) })
        .first('id', 'email', 'first_name', 'last_name', 'username');
      if (!user) return undefined;
      return {
        accountId: String(user.id),
        claims: () => ({
          sub: String(user.id),
          email: user.email,
          name: user.username,
          given_name: user.first_name,
          family_name: user.last_name,
        }),
      };
    },
    async renderError(ctx, out) {
      ctx.type = 'json';
      ctx.body = out;
    },
  };
  // Loaded on first use: the library warns on Node 20 (it supports it, but recommends 22) and
  // servers that never log a user in need not load it.
  const { Provider: OidcProvider, errors } = await import('oidc-provider');
  oidcErrors = errors;
  const provider = new OidcProvider(issuer, configuration);
  provider.proxy = trustProxy;
  // oidc-provider leaves `interval` out of device authorizations (clients then poll every 5 s).
  provider.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      // A device resume link (`/oidc/device/:uid`) opened without the login session that made it
      // makes oidc-provider throw a TypeError while saving a session it never loaded.
      if (ctx.oidc?.route !== 'device_resume' || !(error instanceof TypeError)) throw error;
      ctx.status = 400;
      ctx.type = 'json';
      ctx.body = {
        error: 'invalid_request',
        error_description:
          'This device login link belongs to no login in progress; run canopy-cloud login again.',
      };
      return;
    }
    if (ctx.oidc?.route === 'device_authorization' && ctx.status === 200) {
      (ctx.body as Record<string, unknown>).interval = options.devicePollIntervalSeconds;
    }
  });
  return provider;
}

/** The `typ` and `aud` written in the access tokens of `clientId`. */
function accessTokenPurpose(clientId: string): { typ: TokenType; aud: string } {
  if (clientId === CONSOLE_CLIENT_ID) {
    return { typ: TOKEN_TYPES.consoleAccess, aud: PLATFORM_API_AUDIENCE };
  }
  if (clientId === CLI_CLIENT_ID) return { typ: TOKEN_TYPES.cliAccess, aud: PLATFORM_API_AUDIENCE };
  // A user's login to an agent: the token is for that agent's own client, nothing else.
  return { typ: TOKEN_TYPES.agentLoginAccess, aud: clientId };
}

/**
 * The Canopy Console is a public client: its PKCE verifier proves only that whoever redeems a code
 * also started the login, and anyone (an agent handing the console an authorization URL, say) can
 * start one. So a console code is redeemed only by a request carrying the platform login cookie of
 * the browser session the code was issued in: the console's own same-origin `fetch` sends it; no
 * other party has it (HttpOnly, SameSite). The code is consumed either way.
 */
async function requireConsoleBrowser(ctx: KoaContextWithOIDC): Promise<void> {
  const code = ctx.oidc.entities.AuthorizationCode;
  if (!code) return;
  const session = await ctx.oidc.provider.Session.get(ctx);
  if (!code.sessionUid || session.uid !== code.sessionUid) {
    throw new oidcErrors.InvalidGrant(
      'the console sign-in is redeemed only by the browser that signed in (its platform login cookie is missing)',
    );
  }
}

/** oidc-provider's error classes, once the module is loaded (it is loaded lazily). */
let oidcErrors: typeof OidcErrors;

/** What is wrong with a parsed JSON body (too deep, a NUL character), or `undefined`. */
function bodyProblem(body: unknown): string | undefined {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return 'strings of the body must not hold NUL characters';
    } else if (typeof value === 'object' && value !== null) {
      if (depth >= MAX_JSON_DEPTH) {
        return `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
      }
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return 'keys of the body must not hold NUL characters';
        stack.push([item, depth + 1]);
      }
    }
  }
  return undefined;
}

/** What the user-code page says after a failed submission (oidc-provider's re-render errors). */
function describeDeviceError(error: Error): string {
  switch (error.name) {
    case 'NoCodeError':
      return 'Enter the code canopy-cloud shows.';
    case 'NotFoundError':
      return 'This code is not valid; check it against the one canopy-cloud shows.';
    case 'ExpiredError':
      return 'This code has expired; run canopy-cloud login again.';
    case 'AlreadyUsedError':
      return 'This code was already used; run canopy-cloud login again.';
    case 'AbortedError':
      return 'The login was denied; canopy-cloud reports it. You can close this page.';
    default:
      return 'The code could not be checked; run canopy-cloud login again.';
  }
}
