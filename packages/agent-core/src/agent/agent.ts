import type { Express } from 'express';
import type { AgentPipeline } from '../http/agent-pipeline';
import type { AgentServices } from '../platform/agent-services';
import { AuditRecorder } from '../audit-trail/audit-recorder';
import { findAuditLayers, hideHistoryTable } from '../audit-trail/find-audit-layers';
import { addAuditTrailRoutes } from '../http/audit-trail/audit-routes';
import { PlatformClient, type PlatformClientOptions } from '../platform/platform-client';
import { assertUniqueActionSlugs } from '../schema/action-schema-generator';
import { hashSchema } from '../schema/schema-hash';
import { toSchemaDocument } from '../schema/schema-document';
import { type DataSourceOptions, DataSourceCustomizer } from '../customizer/data-source-customizer';
import type { DataSourceChartDefinition } from '../customizer/decorators/chart/chart-collection';
import type { Plugin } from '../customizer/plugin';
import type { DataSource, DataSourceFactory } from '../toolkit/interfaces/data-source';
import type { Logger } from '../toolkit/interfaces/logger';
import { AgentError } from './agent-error';
import type { ResolvedAgentOptions } from './agent-options';
import { prepareSchema, writeTypings } from './agent-schema';
import { RouterSlot } from './router-slot';
import type { CollectionCustomizer } from '../customizer/collection-customizer';
import type { CustomizerOf } from './typed-collection-customizer';
import { DEFAULT_PORT, StandaloneServer } from './standalone-server';
import { AiError } from '../ai/ai-error';
import type { AiProviderDefinition } from '../ai/ai-provider';
import { addAiProxyRoute } from '../ai/ai-proxy-router';
import { McpError } from '../mcp/mcp-error';
import { type McpServerOptions, resolveMcpOptions } from '../mcp/mcp-options';
import { McpServerMount } from '../mcp/mcp-server-mount';

/**
 * Builds the customized data source from scratch: applies every customization, in call order,
 * on a fresh decorator stack. Called at start and again on every restart.
 */
export type DataSourceBuild = (
  logger: Logger,
  restartAgent: () => Promise<void>,
) => Promise<DataSource>;

/** What the lifecycle is built from (`createAgent` provides the real ones). */
export interface AgentDependencies {
  /** Default: the agent's customizations applied by its `DataSourceCustomizer`. */
  buildDataSource?: DataSourceBuild;
  /** The agent's request pipeline for the running services (`http/createAgentPipeline`). */
  createPipeline: (services: AgentServices) => AgentPipeline;
  /** Timeouts, retries and cache tuning of the platform client (tests shorten them). */
  platform?: Omit<PlatformClientOptions, 'serverUrl' | 'envSecret' | 'logger'>;
}

/**
 * The shape of the `Schema` type that `updateTypesOnFileSystem` generates; `createAgent<Schema>()`
 * then checks collection names at compile time.
 */
export type TypingsSchema = Record<
  string,
  { plain: Record<string, unknown>; nested: Record<string, unknown>; flat: Record<string, unknown> }
>;

/** A collection name of the typed schema (any string without typings). */
export type CollectionName<S extends TypingsSchema> = keyof S & string;

/** How long `stop()` lets requests in flight finish. */
const STOP_GRACE_MS = 5000;

/** What runs between `start()` and `stop()`. */
interface Running {
  platform: PlatformClient;
  dataSource: DataSource;
}

/**
 * The agent's lifecycle (spec §4.1): mounting, `start`, `stop`, `restart`, schema and typings
 * files. Start builds the customized data source, then — in parallel — sets up login, fetches the
 * IP whitelist, writes (development) or reads (production) the schema file and sends it to the
 * platform if the platform does not have it, and writes the typings; then it opens the platform's
 * event stream and serves the routes.
 */
export class Agent<S extends TypingsSchema = TypingsSchema> {
  private readonly slot: RouterSlot;
  private standalone: StandaloneServer | null = null;
  private mounted = false;
  private running: Running | null = null;
  private transition: Promise<void> = Promise.resolve();
  private readonly customizer = new DataSourceCustomizer();
  private mcp: McpServerMount | null = null;
  private ai: AiProviderDefinition | null = null;
  private readonly recorders = new Map<DataSource, AuditRecorder>();

  constructor(
    /** The validated options. */
    readonly options: ResolvedAgentOptions,
    private readonly dependencies: AgentDependencies,
  ) {
    this.slot = new RouterSlot(options.prefix);
  }

  /** The port the standalone server listens on once started (handy with port 0), else `null`. */
  get standaloneServerPort(): number | null {
    return this.standalone?.listeningPort ?? null;
  }

  /** The port of the standalone MCP server once started (handy with port 0), else `null`. */
  get mcpServerPort(): number | null {
    return this.mcp?.listeningPort ?? null;
  }

  /** Whether the agent is started. */
  get isRunning(): boolean {
    return this.running !== null;
  }

  /**
   * Adds a data source (spec §2.2): its factory runs at `start()` and again at every
   * `restart()`; `include`/`exclude` select collections and `rename` renames them.
   *
   * @example
   * createAgent().addDataSource(createSqlDataSource(process.env.DATABASE_URL!), {
   *   exclude: ['knex_migrations'],
   * });
   */
  addDataSource(factory: DataSourceFactory, options?: DataSourceOptions): this {
    this.customizer.addDataSource(factory, options);
    return this;
  }

  /**
   * Customizes a collection (spec §4.3); the handler runs now, what it asks for is applied at
   * start, in call order, after the data source that provides the collection.
   *
   * @example
   * agent.customizeCollection('orders', (orders) =>
   *   orders.addSegment('Late', { field: 'status', operator: 'Equal', value: 'late' }));
   */
  customizeCollection<N extends CollectionName<S>>(
    name: N,
    handler: (collection: CustomizerOf<S, N>) => void,
  ): this {
    this.customizer.customizeCollection(
      name,
      handler as (collection: CollectionCustomizer) => void,
    );
    return this;
  }

  /**
   * Adds a data-source-level chart.
   *
   * @example
   * agent.addChart('mrr', (context, resultBuilder) => resultBuilder.value(42_000));
   */
  addChart(name: string, definition: DataSourceChartDefinition): this {
    this.customizer.addChart(name, definition);
    return this;
  }

  /**
   * Hides collections from the exported schema; they stay usable inside the agent.
   *
   * @example
   * agent.removeCollection('knex_migrations', 'knex_migrations_lock');
   */
  removeCollection(...names: CollectionName<S>[]): this {
    this.customizer.removeCollection(...names);
    return this;
  }

  /**
   * Loads a plugin on every collection.
   *
   * @example
   * agent.use(flattenColumn, { columnName: 'address' });
   */
  use<Options>(plugin: Plugin<Options>, options?: Options): this {
    this.customizer.use(plugin, options);
    return this;
  }

  /**
   * Serves the agent on its own HTTP server, listening from `start()` to `stop()`.
   *
   * @param port default: the `PORT` environment variable, else 3351; `0` picks a free port.
   * @example
   * await createAgent().addDataSource(factory).mountOnStandaloneServer(3351).start();
   */
  mountOnStandaloneServer(port?: number, host?: string): this {
    if (this.running) {
      throw new AgentError(
        'AGENT_ALREADY_STARTED',
        'mountOnStandaloneServer() must be called before start(): the server listens at start.',
      );
    }
    this.claimMount('mountOnStandaloneServer');
    const chosen = port ?? (process.env.PORT ? Number(process.env.PORT) : DEFAULT_PORT);
    if (!Number.isInteger(chosen) || chosen < 0 || chosen > 65_535) {
      throw new AgentError(
        'INVALID_AGENT_OPTIONS',
        `mountOnStandaloneServer needs a port between 0 and 65535, got ${String(port ?? process.env.PORT)}.`,
      );
    }
    this.standalone = new StandaloneServer(this.slot, chosen, host);
    return this;
  }

  /**
   * Serves the agent inside an express application, under the prefix. Other routes of the
   * application are untouched; before `start()` the agent's routes answer 503.
   *
   * @example
   * const app = express();
   * createAgent().addDataSource(factory).mountOnExpress(app).start();
   * app.listen(3000);
   */
  mountOnExpress(app: Express): this {
    this.claimMount('mountOnExpress');
    app.use(this.slot.handler);
    return this;
  }

  /**
   * Enables the MCP server (spec §4.1–4.2, platform protocol §16): from `start()`, AI clients
   * discover it, log in through the platform with OAuth (PKCE) and call the enabled tools, which
   * run through the agent's own routes as the logged-in user. Its routes are served at the origin
   * root of the agent's server, or on their own port with `standalone`.
   *
   * @throws McpError `INVALID_MCP_OPTIONS` (e.g. an unknown tool name) or `MCP_ALREADY_MOUNTED`.
   * @example
   * createAgent().addDataSource(factory).mountOnStandaloneServer(3351)
   *   .mountAiMcpServer({ enabledTools: ['list', 'listRelated'] });
   */
  mountAiMcpServer(options?: McpServerOptions): this {
    if (this.mcp) {
      throw new McpError(
        'MCP_ALREADY_MOUNTED',
        'mountAiMcpServer() was already called on this agent.',
      );
    }
    this.mcp = new McpServerMount(resolveMcpOptions(options));
    return this;
  }

  /**
   * Routes AI features through the agent (spec §4.1, platform protocol §17): from `start()`,
   * `POST <prefix>/_internal/ai-proxy/ai-query` forwards chat requests with tool calling to the
   * provider. Callable once.
   *
   * @throws AiError `AI_ALREADY_CONFIGURED` on a second call, `INVALID_AI_PROVIDER` when the
   * argument was not built by `createAiProvider`.
   * @example
   * agent.addAi(createAiProvider({ name: 'assistant', provider: 'anthropic',
   *   model: 'claude-sonnet-4-5', apiKey: process.env.ANTHROPIC_API_KEY! }));
   */
  addAi(provider: AiProviderDefinition): this {
    if (this.ai) {
      throw new AiError(
        'AI_ALREADY_CONFIGURED',
        `addAi() can be called once: this agent already uses the AI provider "${this.ai.name}".`,
      );
    }
    if (typeof provider?.complete !== 'function' || typeof provider.name !== 'string') {
      throw new AiError(
        'INVALID_AI_PROVIDER',
        'addAi() expects the result of createAiProvider({name, provider, apiKey, model}).',
      );
    }
    this.ai = provider;
    return this;
  }

  /**
   * Starts the agent: builds the customized data source, contacts the platform (IP whitelist,
   * schema hash check and upload), writes the schema and typings files in development, then
   * serves the routes. Rejects with a clear error when the platform is unreachable or the schema
   * file is missing in production; nothing is left open then.
   */
  start(): Promise<void> {
    return this.serialize(async () => {
      if (this.running) {
        throw new AgentError(
          'AGENT_ALREADY_STARTED',
          'The agent is already started; call restart() to rebuild it.',
        );
      }
      const { options } = this;
      if (options.serverUrl === null) {
        throw new AgentError(
          'SERVER_URL_MISSING',
          'The agent needs the Canopy platform URL to start: pass the serverUrl option or set ' +
            'CANOPY_SERVER_URL (only generateSchemaOnly() works without it).',
        );
      }
      const platform = new PlatformClient({
        serverUrl: options.serverUrl,
        envSecret: options.envSecret,
        logger: options.logger,
        ...this.dependencies.platform,
      });
      let dataSource: DataSource | null = null;
      try {
        dataSource = await this.buildDataSource(options.logger, () => this.restartFromDataSource());
        const pipeline = await this.prepare(platform, dataSource, true);
        platform.subscribeToEvents();
        this.slot.set(pipeline);
        await this.mcp?.start({
          platform: platform.http,
          serverUrl: options.serverUrl,
          authSecret: options.authSecret,
          logger: options.logger,
        });
        await this.standalone?.listen();
        this.running = { platform, dataSource };
        const where = this.standalone ? ` on port ${this.standalone.listeningPort}` : '';
        options.logger('Info', `Agent started${where}, serving ${options.prefix}.`);
      } catch (error) {
        this.slot.set(null);
        await this.mcp?.stop();
        await this.standalone?.close();
        await platform.close(0);
        await this.closeDataSource(dataSource);
        options.logger('Error', `The agent failed to start: ${(error as Error).message}`);
        throw error;
      }
    });
  }

  /**
   * Rebuilds the customized data source and the routes, and serves them in place of the old ones
   * without closing the listening socket (spec §4.1). The schema is checked with the platform
   * again. If the rebuild fails, the previous version keeps serving and the error is thrown.
   */
  restart(): Promise<void> {
    return this.serialize(async () => {
      const running = this.running;
      if (!running) {
        throw new AgentError(
          'AGENT_NOT_STARTED',
          'restart() needs a started agent: call start() first.',
        );
      }
      const { logger } = this.options;
      const dataSource = await this.buildDataSource(logger, () => this.restartFromDataSource());
      let pipeline: AgentPipeline;
      try {
        pipeline = await this.prepare(running.platform, dataSource, false);
      } catch (error) {
        await this.closeDataSource(dataSource);
        logger(
          'Error',
          `The agent failed to restart; the previous version keeps serving: ${(error as Error).message}`,
        );
        throw error;
      }
      this.slot.set(pipeline);
      const previous = running.dataSource;
      this.running = { platform: running.platform, dataSource };
      if (previous !== dataSource) await this.closeDataSource(previous);
      logger('Info', 'Agent restarted.');
    });
  }

  /**
   * Stops the agent: new requests get 503, requests in flight may finish (up to 5 s), then the
   * standalone server, the platform event stream and the data sources are closed and queued
   * activity logs are flushed, so the process can exit. Safe to call twice.
   *
   * @example
   * process.once('SIGTERM', () => void agent.stop());
   */
  stop(): Promise<void> {
    return this.serialize(async () => {
      const running = this.running;
      this.running = null;
      this.slot.set(null);
      await this.slot.drain(STOP_GRACE_MS);
      await this.mcp?.stop();
      await this.standalone?.close();
      if (!running) return;
      await running.platform.close();
      await this.closeDataSource(running.dataSource);
      this.options.logger('Info', 'Agent stopped.');
    });
  }

  /**
   * Writes the schema file — always rebuilt, even in production — and the typings when
   * `typingsPath` is set, without starting the agent or contacting the platform. Data source
   * connections stay open: one-shot scripts must close them or exit.
   *
   * @example
   * await agent.generateSchemaOnly();
   * process.exit(0);
   */
  async generateSchemaOnly(): Promise<void> {
    const dataSource = await this.buildDataSource(this.options.logger, async () => {});
    await prepareSchema(dataSource, this.options, true);
    if (this.options.typingsPath) {
      await writeTypings(
        dataSource,
        this.options.typingsPath,
        this.options.typingsMaxDepth,
        this.options.logger,
      );
    }
  }

  /**
   * Rewrites the typings file from the current customizations: those of the running agent, or
   * (before start) a data source built for the purpose and closed afterwards.
   *
   * @param typingsPath where to write the `.d.ts`/`.ts` file.
   * @param typingsMaxDepth how many to-one relations deep field paths go.
   */
  async updateTypesOnFileSystem(typingsPath: string, typingsMaxDepth: number): Promise<void> {
    const { logger } = this.options;
    if (this.running) {
      await writeTypings(this.running.dataSource, typingsPath, typingsMaxDepth, logger);
      return;
    }
    const dataSource = await this.buildDataSource(logger, async () => {});
    try {
      await writeTypings(dataSource, typingsPath, typingsMaxDepth, logger);
    } finally {
      await dataSource.close?.();
    }
  }

  /** Applies every customization on a fresh stack (or runs the injected build). */
  private async buildDataSource(
    logger: Logger,
    restartAgent: () => Promise<void>,
  ): Promise<DataSource> {
    if (this.dependencies.buildDataSource) {
      return this.dependencies.buildDataSource(logger, restartAgent);
    }
    const dataSource = await this.customizer.getDataSource(logger, restartAgent);
    // The history table, once created, is introspected like any other: never publish it.
    if (this.options.auditTrail) hideHistoryTable(dataSource, this.options.auditTrail.table);
    return dataSource;
  }

  /**
   * Hash check, schema file, typings, IP whitelist and login set-up; resolves the pipeline, with
   * the routes of every enabled feature (audit trail, AI proxy, MCP) in its table.
   */
  private async prepare(
    platform: PlatformClient,
    dataSource: DataSource,
    initial: boolean,
  ): Promise<AgentPipeline> {
    const { options } = this;
    if (options.useUnsafeActionEndpoint) {
      for (const collection of dataSource.collections) assertUniqueActionSlugs(collection);
    }
    const sendSchema = async () => {
      const schema = await prepareSchema(dataSource, options);
      const hash = hashSchema(schema);
      await platform.sendSchema(hash, toSchemaDocument(schema, hash));
    };
    const typings = async () => {
      if (!options.isProduction && options.typingsPath) {
        await writeTypings(
          dataSource,
          options.typingsPath,
          options.typingsMaxDepth,
          options.logger,
        );
      }
    };
    const [ipWhitelist] = await Promise.all([
      platform.fetchIpWhitelist(),
      sendSchema(),
      typings(),
      initial ? platform.authentication.initialize() : Promise.resolve(),
      initial ? platform.revocations.load() : Promise.resolve(),
    ]);
    const services: AgentServices = {
      dataSource,
      logger: options.logger,
      options: {
        authSecret: options.authSecret,
        envSecret: options.envSecret,
        prefix: options.prefix,
        isProduction: options.isProduction,
        useUnsafeActionEndpoint: options.useUnsafeActionEndpoint,
        loggerLevel: options.loggerLevel,
        auditTrail: options.auditTrail !== null,
        corsOrigins: [
          ...(options.serverUrl ? [new URL(options.serverUrl).origin] : []),
          ...options.allowedOrigins,
        ],
      },
      permissions: platform.permissions,
      activityLogs: platform.activityLogs,
      recordChanges: platform.recordChanges,
      ipWhitelist,
      authentication: platform.authentication,
      revocations: platform.revocations,
    };
    const pipeline = this.dependencies.createPipeline(services);
    if (options.auditTrail) {
      const auditLayers = findAuditLayers(dataSource);
      if (!auditLayers) {
        throw new AgentError(
          'AGENT_START_FAILED',
          'auditTrail needs the data source built by the agent (its customizer adds the history layers).',
        );
      }
      const [writes, actions] = auditLayers;
      const recorder = await AuditRecorder.open(
        options.auditTrail,
        writes,
        dataSource,
        options.logger,
      );
      writes.recorder = recorder;
      actions.recorder = recorder;
      this.recorders.set(dataSource, recorder);
      addAuditTrailRoutes(pipeline.routes, services, recorder, writes);
    }
    if (this.ai) addAiProxyRoute(pipeline.routes, services, this.ai);
    this.mcp?.attach(pipeline, services);
    return pipeline;
  }

  /** Closes a data source and its history recorder. */
  private async closeDataSource(dataSource: DataSource | null): Promise<void> {
    if (!dataSource) return;
    const recorder = this.recorders.get(dataSource);
    this.recorders.delete(dataSource);
    await recorder?.close();
    await dataSource.close?.();
  }

  /** The `restartAgent` callback given to data sources: restarts, logging instead of throwing. */
  private async restartFromDataSource(): Promise<void> {
    try {
      await this.restart();
    } catch (error) {
      this.options.logger('Error', 'A restart requested by a data source failed.', error);
    }
  }

  private claimMount(method: string): void {
    if (this.mounted) {
      throw new AgentError(
        'AGENT_ALREADY_MOUNTED',
        `${method}() was called on an agent that is already mounted; mount it once.`,
      );
    }
    this.mounted = true;
  }

  /** Runs lifecycle operations one after the other (a stop waits for a start in progress). */
  private serialize(operation: () => Promise<void>): Promise<void> {
    const result = this.transition.then(operation, operation);
    this.transition = result.catch(() => {});
    return result;
  }
}
