import type { Request } from 'express';
import type { Knex } from 'knex';
import { RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginLimitConfig } from '../config';
import { verifyUserPassword } from '../store/model/passwords';

/** The outcome of a password sign-in attempt. */
export type LoginOutcome =
  | { readonly kind: 'signed-in'; readonly user: { id: number; email: string } }
  | { readonly kind: 'wrong' }
  /** Too many failures for this account or address: the password was not even checked. */
  | { readonly kind: 'limited'; readonly retryAfterSeconds: number };

/** Counts failed sign-ins per account and per client address, across every server process. */
export interface LoginLimiter {
  readonly config: LoginLimitConfig;
  /** Checks a password, unless the account or the address already failed too often. */
  attempt(input: { email: string; password: string; address: string }): Promise<LoginOutcome>;
  /** Failed redemptions of one-time account tokens, per client address. */
  readonly tokenFailures: AttemptCounter;
  /** MCP OAuth client registrations, per client address. */
  readonly registrations: AttemptCounter;
}

/** A counter of attempts per key in a fixed window, shared by every server process. */
export interface AttemptCounter {
  /** Seconds to wait when the key reached the limit, else undefined. */
  blockedFor(key: string): Promise<number | undefined>;
  /** Counts one attempt. */
  record(key: string): Promise<void>;
}

const retryAfter = (state: RateLimiterRes) => Math.max(Math.ceil(state.msBeforeNext / 1000), 1);

/**
 * Builds the limiter on rate-limiter-flexible's PostgreSQL store (table `login_limits`): each
 * failure adds a point to the account's and the address's counters, a success clears the
 * account's, and once either counter reaches its limit attempts are refused until its window ends.
 */
export function createLoginLimiter(knex: Knex, config: LoginLimitConfig): LoginLimiter {
  const store = (keyPrefix: string, points: number, duration: number) =>
    new RateLimiterPostgres({
      storeClient: knex,
      storeType: 'knex',
      tableName: 'login_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix,
      points,
      duration,
    });
  const counter = (keyPrefix: string, points: number, duration: number): AttemptCounter => {
    const limiter = store(keyPrefix, points, duration);
    return {
      async blockedFor(key) {
        const state = await limiter.get(key);
        return state && state.consumedPoints >= points ? retryAfter(state) : undefined;
      },
      async record(key) {
        await limiter.penalty(key, 1);
      },
    };
  };
  const perAccount = counter('login-account', config.failuresPerAccount, config.windowSeconds);
  const perAddress = counter('login-address', config.failuresPerAddress, config.windowSeconds);
  const accountLimiter = store('login-account', config.failuresPerAccount, config.windowSeconds);

  return {
    config,
    async attempt({ email, password, address }) {
      const account = email.trim().toLowerCase();
      const wait = Math.max(
        (await perAccount.blockedFor(account)) ?? 0,
        (await perAddress.blockedFor(address)) ?? 0,
      );
      if (wait > 0) return { kind: 'limited', retryAfterSeconds: wait };
      const user = await verifyUserPassword(knex, email, password);
      if (user) {
        await accountLimiter.delete(account);
        return { kind: 'signed-in', user };
      }
      await Promise.all([perAccount.record(account), perAddress.record(address)]);
      return { kind: 'wrong' };
    },
    tokenFailures: counter('account-token', config.failuresPerAddress, config.windowSeconds),
    registrations: counter('oauth-register', config.registrationsPerAddress, 3600),
  };
}

/**
 * A sign-in attempt from a posted form (`email` and `password` fields) through the limiter of
 * `ctx`, charged to the client address express reports (`TRUST_PROXY` decides whether a proxy's
 * `X-Forwarded-For` counts).
 */
export async function attemptFormLogin(limiter: LoginLimiter, req: Request): Promise<LoginOutcome> {
  const { email, password } = (req.body ?? {}) as { email?: unknown; password?: unknown };
  if (typeof email !== 'string' || typeof password !== 'string') return { kind: 'wrong' };
  return limiter.attempt({ email, password, address: clientAddress(req) });
}

/** The address attempts are counted against. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The sentence login forms show when attempts are limited. */
export function limitedMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed sign-ins for this account or from this address; try again in ${minutes} minute(s).`;
}
