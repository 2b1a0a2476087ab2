import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { EventHub } from './agent-protocol/event-hub';
import { ConsoleHub } from './console-live/hub';
import { createApp } from './app';
import { expressServerOptions } from './http/express-objects';
import { createLoginLimiter } from './auth/login-limiter';
import { TokenContextCache } from './auth/token-context-cache';
import { chainKeysOf, useChainKeys } from './integrity/chain-keys';
import { DEFAULT_LOGIN_LIMIT, type AdminApiServerConfig } from './config';
import { openDatabase } from './database/open-database';
import { listeningOrigin, type ServerContext } from './context';
import { createLogger } from './logging/logger';
import { migrateToLatest } from './migrations';
import {
  DEFAULT_MONTHS_AHEAD,
  ensureActivityLogPartitions,
  scheduleDaily,
} from './store/activity-log-partitions';
import { purgeExpiredActivityLogs } from './store/activity-log-retention';
import type { Redis } from 'ioredis';
import { createTokenRateLimiter } from './rate-limit';
import { createRedisRateLimiter } from './rate-limit/redis-rate-limiter';

/**
 * How long `close()` waits for in-flight requests before cutting their connections: short enough
 * that a SIGTERM'd process ends well within the 10 s Docker and Kubernetes wait before SIGKILL
 * (event streams end at once; list and export requests that are still running are cut).
 */
const SHUTDOWN_GRACE_MS = 5_000;

/** A running (or ready to run) admin API server. */
export interface AdminApiServer {
  /** The knex instance the server uses (for fixtures and the CLI). */
  readonly knex: Knex;
  /** The express application, for in-process tests (supertest). */
  readonly app: ReturnType<typeof createApp>;
  /** Starts listening; resolves with the bound port. */
  listen(port?: number, host?: string): Promise<number>;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * Connects to the Redis of the rate limits; a command fails at once while Redis is unreachable
 * (the request gets a 503) instead of waiting in a queue. Closes `database` if Redis cannot be
 * reached at start.
 */
async function openRedis(url: string, database: { close(): Promise<void> }): Promise<Redis> {
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
  });
  // Errors are reported per command (a 503); the client reconnects on its own.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    await database.close();
    throw new Error(
      `Could not connect to CANOPY_REDIS_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return redis;
}

/**
 * Opens the database, applies pending migrations, and builds the server.
 *
 * @example
 * const server = await createAdminApiServer(loadConfig());
 * const port = await server.listen();
 */
export async function createAdminApiServer(config: AdminApiServerConfig): Promise<AdminApiServer> {
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.knex);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
  } catch (error) {
    await database.close();
    throw error;
  }
  useChainKeys(database.knex, chainKeysOf(config));
  // Monthly activity-log partitions: the current and next months at start, then daily, with the
  // retention purge of each project's expired logs.
  const monthsAhead = config.activityLogPartitionsAhead ?? DEFAULT_MONTHS_AHEAD;
  try {
    const created = await ensureActivityLogPartitions(database.knex, { monthsAhead });
    if (created.length > 0) logger.info({ partitions: created }, 'activity-log partitions created');
  } catch (error) {
    await database.close();
    throw error;
  }
  const maintenance = scheduleDaily(
    async () => {
      const created = await ensureActivityLogPartitions(database.knex, { monthsAhead });
      if (created.length > 0)
        logger.info({ partitions: created }, 'activity-log partitions created');
      const purge = await purgeExpiredActivityLogs(database.knex);
      for (const project of purge.projects) {
        logger.info({ ...project, cutoff: project.cutoff.toISOString() }, 'activity logs purged');
      }
      if (purge.partitionsDropped.length > 0) {
        logger.info({ partitions: purge.partitionsDropped }, 'activity-log partitions dropped');
      }
    },
    (error) => logger.error({ err: error }, 'activity-log partition maintenance failed'),
  );
  const redis = config.redisUrl ? await openRedis(config.redisUrl, database) : undefined;
  const tokenContexts = new TokenContextCache();
  const listening: { origin?: string } = {};
  const ctx: ServerContext = {
    knex: database.knex,
    config,
    logger,
    rateLimiter: redis
      ? createRedisRateLimiter(redis, config.rateLimit, config.redisKeyPrefix)
      : createTokenRateLimiter(database.knex, config.rateLimit),
    loginLimiter: createLoginLimiter(database.knex, config.loginLimit ?? DEFAULT_LOGIN_LIMIT),
    tokenContexts,
    listening,
  };
  // The embedded database serves one connection: a LISTEN connection would hold it.
  // Without it, token contexts are not cached (a revocation elsewhere could not be heard).
  // The Console's streams read new events when the agent hub's LISTEN connection hears them.
  const consoleHub: ConsoleHub = new ConsoleHub(database.knex, logger, () => events.listening);
  const events = new EventHub(database.knex, logger, {
    listen: !database.embedded,
    accessChanges: tokenContexts,
    consoleEvents: consoleHub,
  });
  const app = createApp(ctx, events, consoleHub);
  let server: Server | undefined;
  let closing: Promise<void> | undefined;

  return {
    knex: database.knex,
    app,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        const http = createServer(expressServerOptions(app), app);
        http.once('error', reject);
        http.listen(port, host, () => {
          server = http;
          events.start();
          const bound = (http.address() as AddressInfo).port;
          listening.origin = listeningOrigin(host, bound);
          logger.info({ port: bound, host }, 'listening');
          resolve(bound);
        });
      });
    },
    close() {
      closing ??= (async () => {
        events.close();
        consoleHub.close();
        await maintenance.stop();
        if (server) {
          const http = server;
          await new Promise<void>((resolve) => {
            // Keep-alive connections become idle as their in-flight response ends: close them as
            // they do, and cut whatever still hangs after the grace period.
            const sweep = setInterval(() => http.closeIdleConnections(), 100);
            const deadline = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
            http.close(() => {
              clearInterval(sweep);
              clearTimeout(deadline);
              resolve();
            });
            http.closeIdleConnections();
          });
        }
        // Units this process reserved and did not spend go back to the shared counters.
        await ctx.rateLimiter.close?.();
        await database.close();
        await redis?.quit().catch(() => redis.disconnect());
        logger.info('closed');
        logger.flush();
      })();
      return closing;
    },
  };
}
