import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ActivityLogEntry,
  SandboxRecordChange,
  SandboxSchema,
  ServerSandbox,
  ServerSandboxOptions,
} from '@canopy/testing';
import { acquireServer, releaseServer, type PooledServer } from './server-pool';
import { PlatformWorld, type WorldEnvironment } from './platform-world';

const ENV_SECRET = /^[0-9a-f]{64}$/;
/** How long a setter waits for its event to reach the connected agents. */
const EVENT_TIMEOUT_MS = 5_000;

/** An agent's event stream relayed by the proxy. */
interface RelayedStream {
  secret: string;
  /** Called with the name of every event the server sends on it. */
  listeners: Set<(event: string) => void>;
  closed: Promise<void>;
  end(): void;
}

/**
 * `createServerSandbox` of `@canopy/testing`, backed by a real admin-api-server on PostgreSQL.
 *
 * The sandbox URL is a small proxy in front of the server: it forwards the platform protocol
 * unchanged, and
 * - makes every 64-hex env secret an environment of the sandbox's project on first use;
 * - answers the test client's two sandbox-only calls: `POST /agent-schema` stores the schema
 *   file as the environment's schema (store), `POST /permission-override` becomes role rights
 *   (management API);
 * - hides the adapter's own admin from `GET /liana/v4/permissions/users`;
 * - records what the synchronous reads need: schema uploads (then reads the stored schema),
 *   batch sizes, and after each acknowledged batch the environment's activity logs (read through
 *   the public API with an application token before the agent gets the answer), open streams.
 *
 * State setters go through the management API and resolve once the server's `refresh-*` event
 * went through every open agent stream. What the server cannot model throws: conditional
 * action rights, a team whose id is not its rendering id, the MCP OAuth login and approvals.
 */
export async function createServerSandbox(
  port = 0,
  options: ServerSandboxOptions = {},
): Promise<ServerSandbox> {
  const streams = new Set<RelayedStream>();
  let pooled: PooledServer | undefined;
  let world: Promise<PlatformWorld> | undefined;
  let closed = false;
  /** The status `POST /liana/v1/record-changes` answers instead of the server (failRecordChanges). */
  let recordChangeFailure: number | null = null;

  const expectEvent = (event: string) => {
    const seen = new Map<RelayedStream, number>();
    const waiters: (() => void)[] = [];
    const listeners = [...streams].map((stream) => {
      seen.set(stream, 0);
      const listener = (name: string) => {
        if (name !== event) return;
        seen.set(stream, (seen.get(stream) ?? 0) + 1);
        for (const wake of waiters.splice(0)) wake();
      };
      stream.listeners.add(listener);
      void stream.closed.then(() => {
        seen.delete(stream);
        for (const wake of waiters.splice(0)) wake();
      });
      return { stream, listener };
    });
    const allSeen = (count: number) => [...seen.values()].every((n) => n >= count);
    const stop = () => {
      for (const { stream, listener } of listeners) stream.listeners.delete(listener);
    };
    return async (count: number) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `admin-api-server did not send ${count} ${event} event(s) within ${EVENT_TIMEOUT_MS} ms.`,
              ),
            ),
          EVENT_TIMEOUT_MS,
        );
      });
      const arrived = (async () => {
        while (!allSeen(count)) await new Promise<void>((wake) => waiters.push(wake));
      })();
      try {
        await Promise.race([arrived, timeout]);
      } finally {
        clearTimeout(timer);
        stop();
      }
    };
  };

  // The server and its state are set up on first use: a sandbox a test only starts and closes
  // costs nothing.
  const ready = (): Promise<PlatformWorld> => {
    if (closed) return Promise.reject(new Error('This sandbox is closed.'));
    world ??= (async () => {
      pooled = await acquireServer();
      settled = await PlatformWorld.create(pooled, options.agentUrl, expectEvent);
      return settled;
    })();
    return world;
  };
  const pick = async (secret: string | undefined): Promise<WorldEnvironment | undefined> => {
    const state = await ready();
    if (secret) return state.environment(secret);
    if (state.environments.size > 1) {
      throw new Error('Several agents talk to this sandbox: pass the env secret you mean.');
    }
    return state.environments.values().next().value;
  };
  // Synchronous reads: what the proxy recorded (nothing before first use).
  const known = (secret: string | undefined): WorldEnvironment | undefined => {
    const state = peek();
    if (!state) return undefined;
    if (secret) return state.environments.get(secret);
    if (state.environments.size > 1) {
      throw new Error('Several agents talk to this sandbox: pass the env secret you mean.');
    }
    return state.environments.values().next().value;
  };
  let settled: PlatformWorld | undefined;
  const peek = () => settled;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const state = await ready();
    const secret = secretOf(request.headers);
    const environment = secret ? await state.environment(secret) : undefined;
    const path = (request.url ?? '/').split('?')[0];
    const method = request.method ?? 'GET';

    if (method === 'POST' && (path === '/agent-schema' || path === '/permission-override')) {
      if (!environment) {
        answer(
          response,
          401,
          'The forest-secret-key header must carry a 64-character hex env secret.',
        );
        return;
      }
      const body = parseJson(await readBody(request));
      if (path === '/agent-schema') {
        if (!isObject(body) || !Array.isArray(body.collections)) {
          answer(response, 400, 'The agent schema must be an object with a collections array.');
          return;
        }
        await state.storeTestClientSchema(environment, body as unknown as SandboxSchema);
      } else {
        if (!isObject(body)) {
          answer(response, 400, 'Permission overrides must be an object keyed by collection name.');
          return;
        }
        await state.setPermissionOverrides(body, environment);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }

    if (method === 'GET' && path === '/liana/v4/subscribe-to-events' && environment) {
      await state.quiet();
      relayStream(request, response, state.pooled, environment.secret);
      return;
    }

    if (method === 'POST' && path === '/liana/v1/record-changes' && recordChangeFailure !== null) {
      answer(
        response,
        recordChangeFailure,
        'The sandbox refuses record changes (failRecordChanges).',
      );
      return;
    }
    const buffered =
      (method === 'GET' && path === '/liana/v4/permissions/users') ||
      (method === 'POST' &&
        (path === '/forest/apimaps' ||
          path === '/liana/v1/activity-logs' ||
          path === '/liana/v1/record-changes'));
    if (!buffered) {
      forward(request, response, state.pooled);
      return;
    }
    const body = await readBody(request);
    const upstream = await send(state.pooled, request, body);
    let answerBody = upstream.body;
    if (upstream.status < 300 && environment) {
      if (path === '/forest/apimaps') {
        environment.schemaUploads += 1;
        await state.readStoredSchema(environment);
      } else if (path === '/liana/v1/record-changes') {
        // What the server accepted, as the agent sent it.
        environment.recordChanges.push(parseJson(body) as SandboxRecordChange);
      } else if (path === '/liana/v1/activity-logs') {
        const logs = (parseJson(body) as { logs?: unknown[] } | undefined)?.logs;
        environment.activityLogBatches.push(Array.isArray(logs) ? logs.length : 0);
        await state.readActivityLogs(environment);
      } else {
        const users = parseJson(answerBody.toString('utf8')) as { id: number }[];
        answerBody = Buffer.from(JSON.stringify(users.filter((user) => user.id !== state.actorId)));
      }
    }
    const headers = { ...upstream.headers, 'content-length': String(answerBody.length) };
    delete headers['transfer-encoding'];
    response.writeHead(upstream.status, headers).end(answerBody);
  };

  const relayStream = (
    request: IncomingMessage,
    response: ServerResponse,
    target: PooledServer,
    secret: string,
  ) => {
    let markClosed: () => void = () => {};
    const stream: RelayedStream = {
      secret,
      listeners: new Set(),
      closed: new Promise((resolve) => (markClosed = resolve)),
      end: () => {
        upstream.destroy();
        response.end();
      },
    };
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        method: 'GET',
        path: request.url,
        headers: upstreamHeaders(request.headers, target),
        agent: false,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        response.flushHeaders();
        if ((answer.statusCode ?? 500) >= 300) {
          answer.pipe(response);
          return;
        }
        streams.add(stream);
        let text = '';
        answer.on('data', (chunk: Buffer) => {
          response.write(chunk);
          text += chunk.toString('utf8');
          let end = text.indexOf('\n\n');
          while (end !== -1) {
            const name = /^event: (.+)$/m.exec(text.slice(0, end))?.[1];
            text = text.slice(end + 2);
            if (name) for (const listener of [...stream.listeners]) listener(name);
            end = text.indexOf('\n\n');
          }
        });
        answer.on('end', () => response.end());
      },
    );
    const finish = () => {
      streams.delete(stream);
      upstream.destroy();
      markClosed();
    };
    upstream.on('error', () => {
      if (!response.headersSent) answer(response, 502, 'The platform server is unreachable.');
      else response.end();
      finish();
    });
    response.on('close', finish);
    upstream.end();
  };

  const proxy: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) response.end();
      else answer(response, 500, `Platform sandbox: ${(error as Error).message}`);
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, host, () => resolve());
  });
  const actualPort = (proxy.address() as AddressInfo).port;
  const unsupported = (what: string) =>
    new Error(
      `${what} is not modelled by the admin-api-server sandbox (see internal/agent-suite-on-server/README.md).`,
    );

  const sandbox: ServerSandbox = {
    port: actualPort,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    async close() {
      if (closed) return;
      closed = true;
      for (const stream of streams) stream.end();
      proxy.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        proxy.close((error) => (error ? reject(error) : resolve())),
      );
      if (world) {
        await world.catch(() => undefined);
        if (pooled) await releaseServer(pooled);
      }
    },
    setUsers: async (users) => (await ready()).setUsers(users),
    setRoles: async (roles) => (await ready()).setRoles(roles),
    async setPermissionOverrides(overrides, envSecret) {
      const environment = await pick(envSecret);
      if (!environment)
        throw new Error('No agent has contacted the sandbox yet: pass its env secret.');
      await (await ready()).setPermissionOverrides(overrides, environment);
    },
    setScope: async (collection, scope, renderingId) =>
      (await ready()).setScope(collection, scope, renderingId),
    setTeam: async (team, renderingId) => (await ready()).setTeam(team, renderingId),
    setFilterSegments: async (collection, segments, renderingId) =>
      (await ready()).setFilterSegments(collection, segments, renderingId),
    setIpWhitelist: async (rules) => (await ready()).setIpWhitelist(rules),
    schema: (envSecret) => known(envSecret)?.schema,
    schemaUploads: (envSecret) => known(envSecret)?.schemaUploads ?? 0,
    activityLogs: (envSecret) => [...(known(envSecret)?.activityLogs ?? [])],
    activityLogBatches: (envSecret) => [...(known(envSecret)?.activityLogBatches ?? [])],
    recordChanges: (envSecret) => [...(known(envSecret)?.recordChanges ?? [])],
    failRecordChanges(status) {
      recordChangeFailure = status;
    },
    async waitForRecordChanges(predicate, { envSecret, timeoutMs = 5_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const changes = sandbox.recordChanges(envSecret);
        if (predicate(changes)) return changes;
        if (Date.now() > deadline) {
          throw new Error(
            `Record changes did not arrive within ${timeoutMs} ms; received ${JSON.stringify(changes)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    subscribers: (envSecret) => {
      const secret = envSecret ?? known(undefined)?.secret;
      return [...streams].filter((stream) => stream.secret === secret).length;
    },
    get oauth(): never {
      throw unsupported('The MCP OAuth login (sandbox.oauth)');
    },
    actionApprovals() {
      throw unsupported('Action approvals (sandbox.actionApprovals())');
    },
    async waitForActivityLogs(predicate, { envSecret, timeoutMs = 5_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const logs: ActivityLogEntry[] = sandbox.activityLogs(envSecret);
        if (predicate(logs)) return logs;
        if (Date.now() > deadline) {
          throw new Error(
            `Activity logs did not arrive within ${timeoutMs} ms; received ${logs.length}: ` +
              JSON.stringify(
                logs.map(({ action, collectionName }) => ({ action, collectionName })),
              ),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
  return sandbox;
}

function secretOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['forest-secret-key'];
  const bearer = headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const secret = typeof header === 'string' ? header : bearer;
  return secret && ENV_SECRET.test(secret) ? secret : undefined;
}

function isObject(value: unknown): value is Record<string, never> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string | Buffer): unknown {
  try {
    return JSON.parse(text.toString());
  } catch {
    return undefined;
  }
}

function answer(response: ServerResponse, status: number, detail: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ errors: [{ detail }] }));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * The request's headers for the pooled server, with its own Host: the server answers `/oidc` only
 * for its public URL (the address it listens on), as a reverse proxy in front of it would ensure.
 */
function upstreamHeaders(headers: IncomingHttpHeaders, target: PooledServer): IncomingHttpHeaders {
  return { ...headers, host: `127.0.0.1:${target.port}` };
}

/** Streams a request to the server and its answer back. */
function forward(request: IncomingMessage, response: ServerResponse, target: PooledServer): void {
  const upstream = httpRequest(
    {
      host: '127.0.0.1',
      port: target.port,
      method: request.method,
      path: request.url,
      headers: upstreamHeaders(request.headers, target),
      agent: false,
    },
    (answered) => {
      response.writeHead(answered.statusCode ?? 502, answered.headers);
      answered.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (!response.headersSent) answer(response, 502, 'The platform server is unreachable.');
    else response.end();
  });
  request.pipe(upstream);
}

/** Sends a buffered request to the server; resolves with its whole answer. */
function send(
  target: PooledServer,
  request: IncomingMessage,
  body: Buffer,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...upstreamHeaders(request.headers, target),
      'content-length': String(body.length),
    };
    delete headers['transfer-encoding'];
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
        agent: false,
      },
      (answered) => {
        const chunks: Buffer[] = [];
        answered.on('data', (chunk: Buffer) => chunks.push(chunk));
        answered.on('end', () =>
          resolve({
            status: answered.statusCode ?? 502,
            headers: answered.headers,
            body: Buffer.concat(chunks),
          }),
        );
        answered.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}
