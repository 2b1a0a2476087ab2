import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Logger, LoggerLevel } from '../toolkit/interfaces/logger';
import {
  type AuditTrailOptions,
  type ResolvedAuditTrailOptions,
  resolveAuditTrailOptions,
} from '../audit-trail/audit-trail-options';
import { type AgentOptionProblem, AgentOptionsError } from './agent-options-error';
import { createDefaultLogger } from './default-logger';

/**
 * Options of `createAgent` (spec §2.1). Secrets and the platform URL fall back to the
 * environment variables `CANOPY_AUTH_SECRET`, `CANOPY_ENV_SECRET` and `CANOPY_SERVER_URL`.
 *
 * @example
 * const agent = createAgent({
 *   authSecret: process.env.CANOPY_AUTH_SECRET,
 *   envSecret: process.env.CANOPY_ENV_SECRET,
 *   isProduction: process.env.NODE_ENV === 'production',
 *   typingsPath: './typings.ts',
 * });
 */
export interface AgentOptions {
  /** HMAC secret signing the agent's session tokens; any non-empty string. Never sent anywhere. */
  authSecret?: string;
  /** Secret of the platform environment: 64 lowercase hexadecimal characters. */
  envSecret?: string;
  /** Base URL of the Canopy platform (http or https). No default: required to `start()`. */
  serverUrl?: string;
  /**
   * Production mode: the schema file is read (never rebuilt) and typings are not written.
   * Default `false`.
   */
  isProduction?: boolean;
  /** Receives every log line; default: the console. Messages never contain secrets. */
  logger?: Logger;
  /** Lowest level passed to the logger: `Debug`, `Info` (default), `Warn` or `Error`. */
  loggerLevel?: LoggerLevel;
  /** Route prefix of the agent's REST interface; default `/forest`. */
  prefix?: string;
  /** Path of the schema file; default `.canopy-schema.json` in the working directory. */
  schemaPath?: string;
  /** Path of the generated TypeScript typings; written at start in development when set. */
  typingsPath?: string | null;
  /** How deep relations are followed in the typings; default 5. */
  typingsMaxDepth?: number;
  /**
   * Serve action routes without their positional index (`/_actions/{collection}/{slug}`);
   * default `false`. The agent then refuses to start when two actions of a collection share a slug.
   */
  useUnsafeActionEndpoint?: boolean;
  /**
   * Record history: one row per create, update, delete and action run (caller, time, values
   * before and after, correlation id), readable under `<prefix>/_audit-trail/`. Default: off.
   *
   * @example
   * { auditTrail: { redact: ['password'] } }
   */
  auditTrail?: AuditTrailOptions;
  /**
   * Origins (`scheme://host[:port]`, no path) of the front ends other than the Console that call
   * the agent from a browser. The Console's origin (that of `serverUrl`) is always allowed; no
   * other origin gets CORS headers, so other sites' pages cannot read the agent's answers.
   *
   * @example
   * { allowedOrigins: ['https://admin.example.com'] }
   */
  allowedOrigins?: string[];
}

/** {@link AgentOptions} after validation, with every default applied. */
export interface ResolvedAgentOptions {
  readonly authSecret: string;
  readonly envSecret: string;
  /** `null` when neither the option nor `CANOPY_SERVER_URL` is set (only schema generation works). */
  readonly serverUrl: string | null;
  readonly isProduction: boolean;
  /** The user's logger (or the console) filtered by `loggerLevel`. */
  readonly logger: Logger;
  readonly loggerLevel: LoggerLevel;
  readonly prefix: string;
  /** Absolute path. */
  readonly schemaPath: string;
  /** Absolute path, or `null` when no typings are wanted. */
  readonly typingsPath: string | null;
  readonly typingsMaxDepth: number;
  readonly useUnsafeActionEndpoint: boolean;
  /** `null`: no audit trail. */
  readonly auditTrail: ResolvedAuditTrailOptions | null;
  /** Browser origins allowed besides the Console's (normalized: `scheme://host[:port]`). */
  readonly allowedOrigins: readonly string[];
}

const LOGGER_LEVELS: readonly LoggerLevel[] = ['Debug', 'Info', 'Warn', 'Error'];
const ENV_SECRET = /^[0-9a-f]{64}$/;
const PREFIX = /^(\/[A-Za-z0-9._~-]+)+$/;
const KNOWN_OPTIONS = new Set([
  'authSecret',
  'envSecret',
  'serverUrl',
  'isProduction',
  'logger',
  'loggerLevel',
  'prefix',
  'schemaPath',
  'typingsPath',
  'typingsMaxDepth',
  'useUnsafeActionEndpoint',
  'auditTrail',
  'allowedOrigins',
]);

/** What to read instead of the process (tests). */
export interface OptionSources {
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/**
 * Validates `createAgent`'s options, falls back to the environment variables and applies the
 * defaults.
 *
 * @throws AgentOptionsError listing every invalid option (what is wrong and what is expected);
 * secrets' values are never part of the message.
 */
export function resolveAgentOptions(
  options: AgentOptions = {},
  sources: OptionSources = {},
): ResolvedAgentOptions {
  const env = sources.env ?? process.env;
  const cwd = sources.cwd ?? process.cwd();
  const problems: AgentOptionProblem[] = [];
  const fail = (option: string, message: string) => problems.push({ option, message });

  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new AgentOptionsError([
      { option: 'options', message: `must be an object, got ${describe(options)}` },
    ]);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      fail(key, `is not an agent option; valid options are ${[...KNOWN_OPTIONS].join(', ')}`);
    }
  }

  const authSecret = secret(options.authSecret, env.CANOPY_AUTH_SECRET);
  if (authSecret === undefined) {
    fail('authSecret', 'is missing: pass it or set CANOPY_AUTH_SECRET (any non-empty string)');
  } else if (typeof authSecret !== 'string' || authSecret === '') {
    fail('authSecret', `must be a non-empty string, got ${describeSecret(authSecret)}`);
  }

  const envSecret = secret(options.envSecret, env.CANOPY_ENV_SECRET);
  if (envSecret === undefined) {
    fail('envSecret', 'is missing: pass it or set CANOPY_ENV_SECRET (64 lowercase hex characters)');
  } else if (typeof envSecret !== 'string' || !ENV_SECRET.test(envSecret)) {
    fail(
      'envSecret',
      `must be 64 lowercase hexadecimal characters (your environment's secret), got ${describeSecret(envSecret)}`,
    );
  }

  const serverUrl = options.serverUrl ?? nonEmpty(env.CANOPY_SERVER_URL) ?? null;
  if (serverUrl !== null && !isHttpUrl(serverUrl)) {
    fail(
      options.serverUrl === undefined ? 'CANOPY_SERVER_URL' : 'serverUrl',
      `must be an http(s) URL such as https://canopy.example.com, got ${describe(serverUrl)}`,
    );
  }

  const isProduction = boolean('isProduction', options.isProduction, false, fail);
  const useUnsafeActionEndpoint = boolean(
    'useUnsafeActionEndpoint',
    options.useUnsafeActionEndpoint,
    false,
    fail,
  );

  if (options.logger !== undefined && typeof options.logger !== 'function') {
    fail(
      'logger',
      `must be a function (level, message, error?) => void, got ${describe(options.logger)}`,
    );
  }
  const loggerLevel = options.loggerLevel ?? 'Info';
  if (!LOGGER_LEVELS.includes(loggerLevel)) {
    fail('loggerLevel', `must be one of ${LOGGER_LEVELS.join(', ')}, got ${describe(loggerLevel)}`);
  }

  let prefix = options.prefix ?? '/forest';
  if (typeof prefix !== 'string') {
    fail('prefix', `must be a path such as /forest, got ${describe(prefix)}`);
  } else {
    prefix = prefix.replace(/\/+$/, '');
    if (!PREFIX.test(prefix)) {
      fail(
        'prefix',
        `must be a path of URL-safe segments starting with / such as /forest or /admin/api, got ${describe(options.prefix)}`,
      );
    }
  }

  const schemaPath = path('schemaPath', options.schemaPath ?? '.canopy-schema.json', cwd, fail);
  const typingsPath =
    options.typingsPath === undefined || options.typingsPath === null
      ? null
      : path('typingsPath', options.typingsPath, cwd, fail);

  const typingsMaxDepth = options.typingsMaxDepth ?? 5;
  if (!Number.isInteger(typingsMaxDepth) || typingsMaxDepth < 0) {
    fail('typingsMaxDepth', `must be a non-negative integer, got ${describe(typingsMaxDepth)}`);
  }

  let auditTrail: ResolvedAuditTrailOptions | null = null;
  try {
    auditTrail = resolveAuditTrailOptions(options.auditTrail);
  } catch (error) {
    fail('auditTrail', (error as Error).message);
  }

  const allowedOrigins: string[] = [];
  if (options.allowedOrigins !== undefined) {
    if (!Array.isArray(options.allowedOrigins)) {
      fail(
        'allowedOrigins',
        `must be an array of origins such as ["https://admin.example.com"], got ${describe(options.allowedOrigins)}`,
      );
    } else {
      for (const origin of options.allowedOrigins as unknown[]) {
        const normalized = originOf(origin);
        if (normalized === null) {
          fail(
            'allowedOrigins',
            `must list origins (scheme://host[:port], no path, no "*") such as https://admin.example.com, got ${describe(origin)}`,
          );
        } else allowedOrigins.push(normalized);
      }
    }
  }

  if (problems.length > 0) throw new AgentOptionsError(problems);

  const userLogger = options.logger ?? createDefaultLogger();
  const threshold = LOGGER_LEVELS.indexOf(loggerLevel);
  const logger: Logger = (level, message, error) => {
    if (LOGGER_LEVELS.indexOf(level) >= threshold) userLogger(level, message, error);
  };

  return {
    authSecret: authSecret as string,
    envSecret: envSecret as string,
    serverUrl: serverUrl === null ? null : (serverUrl as string).replace(/\/+$/, ''),
    isProduction,
    logger,
    loggerLevel,
    prefix,
    schemaPath: schemaPath as string,
    typingsPath,
    typingsMaxDepth,
    useUnsafeActionEndpoint,
    auditTrail,
    allowedOrigins,
  };
}

/**
 * The origin `value` names (`https://Admin.example.com:443` → `https://admin.example.com`), or
 * `null` when it is not an http(s) origin without path, query or credentials.
 */
function originOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' || /^[a-z]+:\/\/[^/]+\/./i.test(value)) return null;
  return url.origin;
}

function secret(option: unknown, variable: string | undefined): unknown {
  return option !== undefined ? option : nonEmpty(variable);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function boolean(
  option: string,
  value: unknown,
  fallback: boolean,
  fail: (option: string, message: string) => void,
): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    fail(option, `must be true or false, got ${describe(value)}`);
    return fallback;
  }
  return value;
}

function path(
  option: string,
  value: unknown,
  cwd: string,
  fail: (option: string, message: string) => void,
): string | null {
  if (typeof value !== 'string' || value.trim() === '') {
    fail(option, `must be a file path, got ${describe(value)}`);
    return null;
  }
  const absolute = resolve(cwd, value);
  const directory = dirname(absolute);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    fail(option, `is in a directory that does not exist (${directory}); create it first`);
  }
  return absolute;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Describes a secret's shape without its value. */
function describeSecret(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return value === null
    ? 'null'
    : `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
