import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, RequestHandler } from 'express';

import type { AgentPipeline } from '../http/agent-pipeline';
import { loadExpress } from '../http/pipeline/load-express';
import type { HttpRequest } from '../http/request/node-http';
import type { AgentServices } from '../platform/agent-services';
import type { PlatformHttpClient } from '../platform/platform-http-client';
import { generateSchema } from '../schema/schema-generator';
import type { SchemaCollection } from '../schema/schema-json';
import type { DataSource } from '../toolkit/interfaces/data-source';
import type { Logger } from '../toolkit/interfaces/logger';
import { createOperationContext, type OperationContext } from '../operations/context';
import { AgentOperations } from './agent-operations';
import type { ResolvedMcpOptions } from './mcp-options';
import { McpOAuth } from './oauth/mcp-oauth';
import type { McpAccessClaims } from './oauth/mcp-tokens';
import { PlatformOAuthClient } from './oauth/platform-oauth-client';
import { requestApproval } from './platform-approvals';
import type { ToolContext } from './tools/tool-context';
import { UploadStore } from './tools/upload-store';

/** The first path segments of the MCP and OAuth routes (matched as express does: any case). */
const MCP_SEGMENTS: ReadonlySet<string> = new Set(['mcp', 'oauth', '.well-known']);

/** Whether a request's path starts with a segment of the MCP or OAuth routes. */
function isMcpPath(request: HttpRequest): boolean {
  const url = request.url ?? '';
  let end = 1;
  while (end < url.length && url[end] !== '/' && url[end] !== '?') end += 1;
  return MCP_SEGMENTS.has(url.slice(1, end).toLowerCase());
}

/** What the agent gives the MCP server when it starts. */
export interface McpStartContext {
  platform: PlatformHttpClient;
  serverUrl: string;
  authSecret: string;
  logger: Logger;
}

/**
 * The MCP server of an agent (`agent.mountAiMcpServer`): its routes are served at the agent's
 * origin root ({@link wrap}) or on their own port, and its tools run the current agent's
 * operations (`src/operations/`) in memory as the MCP token's user.
 */
export class McpServerMount {
  private services: AgentServices | null = null;
  /** Builds the MCP and OAuth routes: set at start, run by the first request for them. */
  private buildRoutes: (() => Promise<RequestHandler>) | null = null;
  private routes: Promise<RequestHandler> | null = null;
  private server: Server | null = null;
  private readonly schemas = new WeakMap<DataSource, Promise<SchemaCollection[]>>();
  private readonly operations = new WeakMap<AgentServices, OperationContext>();
  private environmentUrl: Promise<string | null> | null = null;
  private platform: PlatformHttpClient | null = null;
  private readonly uploads = new UploadStore();

  constructor(readonly options: ResolvedMcpOptions) {}

  /** The port of the standalone MCP server once listening, else `null`. */
  get listeningPort(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  /**
   * Serves the agent `pipeline` built for `services`: tools run its operations from now on. Unless
   * standalone, the MCP and OAuth routes are added at the origin root (`/mcp`, `/oauth/…`,
   * `/.well-known/…`), ahead of the agent's routes; a request under those paths that they do not
   * serve goes on to the agent's routes.
   */
  attach(pipeline: AgentPipeline, services: AgentServices): void {
    this.services = services;
    if (this.options.standalone) return;
    pipeline.addOriginRoutes(isMcpPath, (request, response, next) => {
      this.loadRoutes().then(
        (routes) => (routes ? routes(request, response, next) : next()),
        (error: unknown) => next(error),
      );
    });
  }

  /**
   * The MCP and OAuth routes, built on first use: the MCP SDK and the tools' schemas (zod) cost
   * ~24 MB of memory, which an agent that mounts the MCP server but serves no MCP client does not
   * pay. `null` when not started.
   */
  private loadRoutes(): Promise<RequestHandler | null> {
    if (!this.buildRoutes) return Promise.resolve(null);
    this.routes ??= this.buildRoutes();
    return this.routes;
  }

  /** Builds the OAuth façade and routes, and listens when standalone. */
  async start(context: McpStartContext): Promise<void> {
    const { options } = this;
    this.platform = context.platform;
    const platform = new PlatformOAuthClient(context.platform);
    const oauth = new McpOAuth(
      platform,
      options.appUrl ?? context.serverUrl,
      {
        accessTokenSeconds: options.accessTokenSeconds,
        refreshTokenSeconds: options.refreshTokenSeconds,
      },
      context.authSecret,
      options.allowedOAuthClients,
    );
    this.environmentUrl = null;
    this.routes = null;
    this.buildRoutes = async () => {
      const [{ createMcpRouter }, { enabledTools }] = await Promise.all([
        import('./mcp-http-router'),
        import('./tools'),
      ]);
      return createMcpRouter({
        oauth,
        authSecret: context.authSecret,
        serverUrl: context.serverUrl,
        publicUrl: (request) => this.publicUrl(request, platform),
        tools: enabledTools(options.enabledTools),
        openContext: (claims) => this.openContext(claims),
        logger: context.logger,
        maxUploadBytes: options.maxUploadBytes,
      });
    };
    if (!options.standalone) return;
    const express = await loadExpress();
    const app = express();
    app.disable('x-powered-by');
    app.use((await this.loadRoutes()) as RequestHandler);
    const server = createServer(app);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.standalone?.port, options.standalone?.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    context.logger('Info', `MCP server listening on port ${this.listeningPort}.`);
  }

  /** Stops serving the MCP routes (and closes the standalone server). */
  async stop(): Promise<void> {
    this.buildRoutes = null;
    this.routes = null;
    this.platform = null;
    this.services = null;
    this.uploads.clear();
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  /** The configured public URL, else the environment's `api_endpoint`, else the request's origin. */
  private async publicUrl(request: Request, platform: PlatformOAuthClient): Promise<string> {
    if (this.options.publicUrl) return this.options.publicUrl;
    this.environmentUrl ??= platform.environment().then(
      ({ apiEndpoint }) => apiEndpoint?.replace(/\/+$/, '') || null,
      () => null,
    );
    return (await this.environmentUrl) ?? `${request.protocol}://${request.get('host')}`;
  }

  private async openContext(claims: McpAccessClaims): Promise<ToolContext> {
    const { services, platform } = this;
    if (!services || !platform) throw new Error('The agent is not running.');
    let schema = this.schemas.get(services.dataSource);
    if (!schema) {
      schema = generateSchema(services.dataSource, services.options).then((s) => s.collections);
      this.schemas.set(services.dataSource, schema);
    }
    let operations = this.operations.get(services);
    if (!operations) {
      operations = createOperationContext(services);
      this.operations.set(services, operations);
    }
    const checker = operations.permissions;
    const visible = new Map<string, SchemaCollection>();
    for (const collection of await schema) {
      if (await checker.hasCollectionRight(claims, collection.name, 'browse')) {
        visible.set(collection.name, collection);
      }
    }
    return {
      claims,
      collections: visible,
      services,
      agent: new AgentOperations(operations, claims),
      requestApproval: (request) =>
        requestApproval(platform, claims.serverToken, claims.renderingId, request),
      uploads: this.uploads,
      maxUploadBytes: this.options.maxUploadBytes,
    };
  }
}
