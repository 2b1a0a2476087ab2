import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { EventHub } from './agent-protocol/event-hub';
import { createApp } from './app';
import { createLoginLimiter } from './auth/login-limiter';
import { chainKeysOf, useChainKeys } from './integrity/chain-keys';
import { DEFAULT_LOGIN_LIMIT, type AdminApiServerConfig } from './config';
import { openDatabase } from './database/open-database';
import type { ServerContext } from './http/context';
import { createLogger } from './logging/logger';
import { migrateToLatest } from './migrations';
import { createTokenRateLimiter } from './rate-limit';

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
  const ctx: ServerContext = {
    knex: database.knex,
    config,
    logger,
    rateLimiter: createTokenRateLimiter(database.knex, config.rateLimit),
    loginLimiter: createLoginLimiter(database.knex, config.loginLimit ?? DEFAULT_LOGIN_LIMIT),
  };
  // The embedded database serves one connection: a LISTEN connection would hold it.
  const events = new EventHub(database.knex, logger, {
    listen: config.database.kind !== 'embedded',
  });
  const app = createApp(ctx, events);
  let server: Server | undefined;
  let closing: Promise<void> | undefined;

  return {
    knex: database.knex,
    app,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        const http = createServer(app);
        http.once('error', reject);
        http.listen(port, host, () => {
          server = http;
          events.start();
          const bound = (http.address() as AddressInfo).port;
          logger.info({ port: bound, host }, 'listening');
          resolve(bound);
        });
      });
    },
    close() {
      closing ??= (async () => {
        events.close();
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
        await database.close();
        logger.info('closed');
      })();
      return closing;
    },
  };
}
