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
  /**
   * Accounts (by email) locked after too many failed sign-ins, and until when; emails that are
   * not locked are left out.
   */
  lockedUntil(emails: readonly string[]): Promise<Map<string, Date>>;
  /** Forgets an account's failed sign-ins (an admin unlocks it): until when it was locked. */
  unlock(email: string): Promise<Date | undefined>;
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
  const accountOf = (email: string) => email.trim().toLowerCase();
  // One query for a whole member list, on the library's table (`points` and `expire`, in epoch
  // milliseconds, per key).
  const lockedUntil = async (emails: readonly string[]) => {
    const byKey = new Map(emails.map((email) => [accountLimiter.getKey(accountOf(email)), email]));
    const locked = new Map<string, Date>();
    if (byKey.size === 0) return locked;
    const rows: { key: string; expire: string | number }[] = await knex('login_limits')
      .whereIn('key', [...byKey.keys()])
      .where('points', '>=', config.failuresPerAccount)
      .where('expire', '>', Date.now())
      .select('key', 'expire');
    for (const row of rows) locked.set(byKey.get(row.key)!, new Date(Number(row.expire)));
    return locked;
  };

  return {
    config,
    lockedUntil,
    async unlock(email) {
      const until = (await lockedUntil([email])).get(email);
      await accountLimiter.delete(accountOf(email));
      return until;
    },
    async attempt({ email, password, address }) {
      const account = accountOf(email);
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

/** The email a posted sign-in form named, to fill the form in again after a failure. */
export function typedEmail(req: Request): string | undefined {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : undefined;
}

/** The address attempts are counted against. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The sentence API errors give when attempts are limited. */
export function limitedMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed sign-ins for this account or from this address; try again in ${minutes} minute(s).`;
}

/**
 * What sign-in pages show when attempts are limited (HTML): until when, as a `<time>` the page's
 * script shows in the reader's local time (UTC without scripts), and who can lift it. The same for
 * an e-mail with or without an account, so it tells nothing about which exist.
 */
export function limitedNotice(retryAfterSeconds: number, now = new Date()): string {
  const until = new Date(now.getTime() + retryAfterSeconds * 1000);
  const utc = `${until.toISOString().slice(11, 16)} UTC`;
  return `<p role="alert">Too many failed sign-ins for this account or from this address: signing in is locked until <time data-local datetime="${until.toISOString()}">${utc}</time>. Try again then, or ask an admin of your project to unlock your account.</p>`;
}
