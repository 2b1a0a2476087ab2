import type { Knex } from 'knex';

/**
 * Whether the console is served. What it lists comes from the platform itself (`/v1/me`: the
 * user's projects, environments with their API endpoint, teams, rights and uploaded schemas).
 */
export interface ConsoleOptions {
  /** `false` serves no console (`CANOPY_CONSOLE=off`). */
  readonly enabled: boolean;
  /** The agents' origins the console may connect to (see `consoleCsp` in src/console/router.ts); none if absent. */
  readonly agentOrigins?: () => Promise<readonly string[]>;
  /**
   * Other origins the console may call (`CANOPY_CONSOLE_CONNECT_SRC`): the hosts of webhook
   * action results, which the browser calls itself.
   */
  readonly connectOrigins?: readonly string[];
}

/**
 * Bounds of streamed exports, so that exports can never take every database connection: how many
 * run at once on this server and per token, how long one may send nothing (a reader that pauses)
 * before it is cut, and the longest one may run (its statement timeout).
 */
export interface ExportLimits {
  readonly maxConcurrent: number;
  readonly maxPerToken: number;
  readonly idleTimeoutSeconds: number;
  readonly maxDurationSeconds: number;
}

/** Two exports per server, one per token, cut after 30 s without progress or 15 minutes in all. */
export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  maxConcurrent: 2,
  maxPerToken: 1,
  idleTimeoutSeconds: 30,
  maxDurationSeconds: 900,
};

/** One HMAC key for signing application and session tokens; its `id` travels as the JWT `kid`. */
export interface SigningKey {
  readonly id: string;
  readonly secret: string;
}

/**
 * Per-token rate limit: `points` requests per `durationSeconds` (the sustained rate), plus a
 * bucket of `burstPoints` extra requests refilled every `burstDurationSeconds`.
 */
export interface RateLimitConfig {
  readonly points: number;
  readonly durationSeconds: number;
  readonly burstPoints: number;
  readonly burstDurationSeconds: number;
}

/**
 * Limits of credential forms (every server process shares the counters): failed sign-ins per
 * account and per client address within a window, and MCP OAuth client registrations per address
 * per hour.
 */
export interface LoginLimitConfig {
  readonly failuresPerAccount: number;
  readonly failuresPerAddress: number;
  readonly windowSeconds: number;
  readonly registrationsPerAddress: number;
}

/** Defaults of {@link LoginLimitConfig}: 10 failures per account, 50 per address, per 15 minutes. */
export const DEFAULT_LOGIN_LIMIT: LoginLimitConfig = {
  failuresPerAccount: 10,
  failuresPerAddress: 50,
  windowSeconds: 900,
  registrationsPerAddress: 20,
};

/**
 * Where the data lives: a PostgreSQL URL, an existing knex instance, or the embedded default (in
 * `dataDir`, or an embedded PostgreSQL already serving at `url`, as tests start one). The embedded
 * store serves one connection: see src/database/open-database.ts.
 */
export type DatabaseConfig =
  | { readonly kind: 'url'; readonly url: string; readonly poolSize: number }
  | { readonly kind: 'knex'; readonly knex: Knex }
  | { readonly kind: 'embedded'; readonly dataDir: string }
  | { readonly kind: 'embedded'; readonly url: string };

/** Everything the server needs; build it with {@link loadConfig} or by hand in tests. */
export interface AdminApiServerConfig {
  readonly database: DatabaseConfig;
  /** TCP port of `listen()`; 0 picks a free one. */
  readonly port: number;
  readonly host: string;
  /** The first key signs new tokens; every key verifies (rotation). */
  readonly signingKeys: readonly SigningKey[];
  readonly rateLimit: RateLimitConfig;
  /**
   * Redis holding the per-token rate-limit counters (`CANOPY_REDIS_URL`, e.g.
   * `redis://127.0.0.1:6379/0`): one atomic script per request instead of a PostgreSQL write.
   * Every replica must use the same Redis. When absent, the counters live in PostgreSQL.
   */
  readonly redisUrl?: string;
  /** Prefix of the rate-limit keys in Redis (`CANOPY_REDIS_KEY_PREFIX`, default `canopy:rate-limit:`). */
  readonly redisKeyPrefix?: string;
  /**
   * Keys of the activity-log hash chain (`CANOPY_AUDIT_CHAIN_KEYS`, newest first; retired ones
   * after it so their links keep verifying). When absent, derived from {@link signingKeys}.
   */
  readonly auditChainKeys?: readonly SigningKey[];
  /**
   * Monthly activity-log partitions kept ready after the current month
   * (`ACTIVITY_LOG_PARTITIONS_AHEAD`, default 3): created at start and daily.
   */
  readonly activityLogPartitionsAhead?: number;
  /** Limits of sign-in forms and client registration; {@link DEFAULT_LOGIN_LIMIT} when absent. */
  readonly loginLimit?: LoginLimitConfig;
  /** Lifetime of application tokens created without an explicit expiry. */
  readonly defaultTokenLifetimeDays: number;
  /** pino level; `silent` in tests. */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Passed to express `trust proxy`. */
  readonly trustProxy: boolean;
  /**
   * The server's public origin (`CANOPY_PUBLIC_URL`): the OIDC issuer is `<origin>/oidc`, every
   * redirect URI is on it, and `/oidc` requests naming another host are refused (421). By
   * default, the address `listen()` bound (`http://127.0.0.1:<port>`; `localhost` for `0.0.0.0`);
   * never the request's `Host` header.
   */
  readonly publicUrl?: string;
  /**
   * Lifetime of the OIDC provider's access tokens (users logged in to agents, canopy-cloud
   * logins), in seconds (`OIDC_ACCESS_TOKEN_TTL_SECONDS`); default 3600.
   */
  readonly oidcAccessTokenTtlSeconds?: number;
  /**
   * How often canopy-cloud polls while a device login waits for approval, in seconds: the
   * `interval` of device authorizations (`OIDC_DEVICE_POLL_INTERVAL_SECONDS`); default 5.
   */
  readonly oidcDevicePollIntervalSeconds?: number;
  /**
   * Bounds of streamed exports (`EXPORT_MAX_CONCURRENT`, `EXPORT_MAX_PER_TOKEN`,
   * `EXPORT_IDLE_TIMEOUT_SECONDS`, `EXPORT_MAX_DURATION_SECONDS`); defaults in
   * {@link DEFAULT_EXPORT_LIMITS}.
   */
  readonly exports?: Partial<ExportLimits>;
  /**
   * The Canopy Console at `/` (`CANOPY_CONSOLE=off` turns it off); what it lists comes from
   * `/v1/me`.
   */
  readonly console?: ConsoleOptions;
}

/** Raised when the environment holds a value the server cannot use; names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Defaults of the rate limit: 10 requests per second sustained plus a burst of 50 per minute. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = {
  points: 10,
  durationSeconds: 1,
  burstPoints: 50,
  burstDurationSeconds: 60,
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ConfigError(`${name} must be an integer ≥ ${min}; got "${raw}".`);
  }
  return Number(raw);
}

/**
 * Parses `CANOPY_TOKEN_SIGNING_KEYS`: comma-separated `id:secret` pairs, newest first. Secrets must
 * be at least 32 characters; their values never appear in error messages.
 */
export function parseSigningKeys(
  raw: string | undefined,
  variable = 'CANOPY_TOKEN_SIGNING_KEYS',
): SigningKey[] {
  if (raw === undefined || raw.trim() === '') {
    throw new ConfigError(
      `${variable} is required: comma-separated "id:secret" pairs, newest first, ` +
        'each secret at least 32 characters (for example "k1:<64 random hex characters>").',
    );
  }
  return raw.split(',').map((pair, index) => {
    const separator = pair.indexOf(':');
    const id = separator > 0 ? pair.slice(0, separator).trim() : '';
    const secret = separator > 0 ? pair.slice(separator + 1).trim() : '';
    if (!/^[A-Za-z0-9._-]+$/.test(id) || secret.length < 32) {
      throw new ConfigError(
        `${variable} entry ${index + 1} must be "id:secret" with an id of letters, ` +
          'digits, ".", "_" or "-" and a secret of at least 32 characters.',
      );
    }
    return { id, secret };
  });
}

function checkRedisUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('CANOPY_REDIS_URL must be a redis:// or rediss:// URL.');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(
      `CANOPY_REDIS_URL must be a redis:// or rediss:// URL; got the scheme "${url.protocol}".`,
    );
  }
  return value;
}

/**
 * Reads the configuration from environment variables (see the README for the list).
 * `requireSigningKeys: false` serves commands that never sign or verify tokens.
 *
 * @example
 * const config = loadConfig(process.env);
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { requireSigningKeys?: boolean } = {},
): AdminApiServerConfig {
  const url = env.DATABASE_URL;
  const database: DatabaseConfig =
    url !== undefined && url !== ''
      ? {
          kind: 'url',
          url: checkDatabaseUrl(url),
          poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1),
        }
      : { kind: 'embedded', dataDir: env.CANOPY_DATA_DIR || '.canopy-data' };
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}".`);
  }
  return {
    database,
    port: integer(env, 'PORT', 3000, 0),
    host: env.HOST || '0.0.0.0',
    signingKeys:
      options.requireSigningKeys === false && !env.CANOPY_TOKEN_SIGNING_KEYS
        ? []
        : parseSigningKeys(env.CANOPY_TOKEN_SIGNING_KEYS),
    rateLimit: {
      points: integer(env, 'RATE_LIMIT_POINTS', DEFAULT_RATE_LIMIT.points, 1),
      durationSeconds: integer(
        env,
        'RATE_LIMIT_DURATION_SECONDS',
        DEFAULT_RATE_LIMIT.durationSeconds,
        1,
      ),
      burstPoints: integer(env, 'RATE_LIMIT_BURST_POINTS', DEFAULT_RATE_LIMIT.burstPoints, 0),
      burstDurationSeconds: integer(
        env,
        'RATE_LIMIT_BURST_DURATION_SECONDS',
        DEFAULT_RATE_LIMIT.burstDurationSeconds,
        1,
      ),
    },
    ...(env.CANOPY_REDIS_URL ? { redisUrl: checkRedisUrl(env.CANOPY_REDIS_URL) } : {}),
    ...(env.CANOPY_REDIS_KEY_PREFIX ? { redisKeyPrefix: env.CANOPY_REDIS_KEY_PREFIX } : {}),
    ...(env.ACTIVITY_LOG_PARTITIONS_AHEAD
      ? { activityLogPartitionsAhead: integer(env, 'ACTIVITY_LOG_PARTITIONS_AHEAD', 3, 0) }
      : {}),
    ...(env.CANOPY_AUDIT_CHAIN_KEYS
      ? { auditChainKeys: parseSigningKeys(env.CANOPY_AUDIT_CHAIN_KEYS, 'CANOPY_AUDIT_CHAIN_KEYS') }
      : {}),
    loginLimit: {
      failuresPerAccount: integer(
        env,
        'LOGIN_MAX_FAILURES_PER_ACCOUNT',
        DEFAULT_LOGIN_LIMIT.failuresPerAccount,
        1,
      ),
      failuresPerAddress: integer(
        env,
        'LOGIN_MAX_FAILURES_PER_ADDRESS',
        DEFAULT_LOGIN_LIMIT.failuresPerAddress,
        1,
      ),
      windowSeconds: integer(
        env,
        'LOGIN_FAILURE_WINDOW_SECONDS',
        DEFAULT_LOGIN_LIMIT.windowSeconds,
        1,
      ),
      registrationsPerAddress: integer(
        env,
        'OAUTH_REGISTRATIONS_PER_ADDRESS_PER_HOUR',
        DEFAULT_LOGIN_LIMIT.registrationsPerAddress,
        1,
      ),
    },
    defaultTokenLifetimeDays: integer(env, 'TOKEN_DEFAULT_LIFETIME_DAYS', 365, 1),
    logLevel: logLevel as AdminApiServerConfig['logLevel'],
    trustProxy: env.TRUST_PROXY === 'true',
    ...(env.CANOPY_PUBLIC_URL ? { publicUrl: checkPublicUrl(env.CANOPY_PUBLIC_URL) } : {}),
    oidcAccessTokenTtlSeconds: integer(env, 'OIDC_ACCESS_TOKEN_TTL_SECONDS', 3600, 1),
    oidcDevicePollIntervalSeconds: integer(env, 'OIDC_DEVICE_POLL_INTERVAL_SECONDS', 5, 1),
    exports: {
      maxConcurrent: integer(env, 'EXPORT_MAX_CONCURRENT', DEFAULT_EXPORT_LIMITS.maxConcurrent, 1),
      maxPerToken: integer(env, 'EXPORT_MAX_PER_TOKEN', DEFAULT_EXPORT_LIMITS.maxPerToken, 1),
      idleTimeoutSeconds: integer(
        env,
        'EXPORT_IDLE_TIMEOUT_SECONDS',
        DEFAULT_EXPORT_LIMITS.idleTimeoutSeconds,
        1,
      ),
      maxDurationSeconds: integer(
        env,
        'EXPORT_MAX_DURATION_SECONDS',
        DEFAULT_EXPORT_LIMITS.maxDurationSeconds,
        1,
      ),
    },
    console: {
      enabled: env.CANOPY_CONSOLE !== 'off',
      connectOrigins: consoleConnectOrigins(env.CANOPY_CONSOLE_CONNECT_SRC),
    },
  };
}

/**
 * `CANOPY_CONSOLE_CONNECT_SRC`: comma-separated http(s) origins the console may call besides the
 * platform and the agents, e.g. the hosts of webhook action results, which the browser calls.
 */
function consoleConnectOrigins(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((value) => {
    let parsed: URL | undefined;
    try {
      parsed = new URL(value.trim());
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.pathname !== '/') {
      throw new ConfigError(
        `CANOPY_CONSOLE_CONNECT_SRC must list http(s) origins without a path, separated by commas, such as https://hooks.example.com; got "${value.trim()}".`,
      );
    }
    return parsed.origin;
  });
}

function checkPublicUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(
      'CANOPY_PUBLIC_URL must be an http(s) origin such as https://admin.example.com.',
    );
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.pathname !== '/') {
    throw new ConfigError(
      'CANOPY_PUBLIC_URL must be an http(s) origin without a path, such as https://admin.example.com.',
    );
  }
  return parsed.origin;
}

function checkDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (it could not be parsed).');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must use postgres:// or postgresql://; got "${parsed.protocol}".`,
    );
  }
  return url;
}
