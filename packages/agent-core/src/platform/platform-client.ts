import type { Logger } from '../toolkit/interfaces/logger';
import { ActivityLogReporter, type ActivityLogReporterOptions } from './activity-log-reporter';
import { RecordChangeReporter, type RecordChangeReporterOptions } from './record-change-reporter';
import type { IpWhitelist, IpWhitelistRule } from './agent-services';
import { createIpWhitelist } from './ip-whitelist';
import { PlatformAuthenticationClient } from './platform-authentication-client';
import { PlatformError } from './platform-error';
import { PlatformEventStream, type PlatformEventStreamOptions } from './platform-event-stream';
import { PlatformHttpClient } from './platform-http-client';
import { DEFAULT_PERMISSIONS_TTL_MS, PlatformPermissionSource } from './platform-permission-source';
import { PlatformSessionRevocations } from './session-revocations';

/** Settings of {@link PlatformClient}; everything but the first three has a default. */
export interface PlatformClientOptions {
  serverUrl: string;
  envSecret: string;
  logger: Logger;
  /** Time limit of one call (default 10 s); the schema upload gets 30 s. */
  timeoutMs?: number;
  /** Extra attempts after transient failures; default 2. */
  retries?: number;
  retryDelayMs?: number;
  /** Lifetime of cached permissions; default 15 minutes. */
  permissionsTtlMs?: number;
  events?: PlatformEventStreamOptions;
  activityLogs?: ActivityLogReporterOptions;
  recordChanges?: RecordChangeReporterOptions;
}

const SCHEMA_UPLOAD_TIMEOUT_MS = 30_000;

/**
 * Everything the agent asks of the Canopy platform: the IP whitelist and the schema at start,
 * permissions (lazily, cached, invalidated by the event stream), logins, and the activity log.
 * One instance lives from `start()` to `stop()`; {@link close} ends every connection and timer.
 */
export class PlatformClient {
  readonly http: PlatformHttpClient;
  readonly permissions: PlatformPermissionSource;
  readonly activityLogs: ActivityLogReporter;
  /** The writes the agent made, for the Console's live view (platform protocol §7.1). */
  readonly recordChanges: RecordChangeReporter;
  readonly authentication: PlatformAuthenticationClient;
  /** Sign-outs: read at start and on each reopened stream, then announced by events. */
  readonly revocations: PlatformSessionRevocations;
  private readonly events: PlatformEventStream;
  private readonly logger: Logger;

  constructor(options: PlatformClientOptions) {
    this.logger = options.logger;
    this.http = new PlatformHttpClient(options);
    this.permissions = new PlatformPermissionSource(
      this.http,
      this.logger,
      options.permissionsTtlMs ?? DEFAULT_PERMISSIONS_TTL_MS,
    );
    this.activityLogs = new ActivityLogReporter(this.http, this.logger, options.activityLogs);
    this.recordChanges = new RecordChangeReporter(this.http, this.logger, options.recordChanges);
    this.authentication = new PlatformAuthenticationClient(this.http, this.logger);
    this.revocations = new PlatformSessionRevocations(this.http, this.logger);
    this.events = new PlatformEventStream(
      this.http,
      this.logger,
      {
        onEvent: (name, data) => {
          this.permissions.handleEvent(name, data);
          this.revocations.handleEvent(name, data);
        },
        onReconnect: () => {
          this.permissions.invalidateAll();
          void this.revocations.load();
        },
      },
      options.events,
    );
  }

  /**
   * `GET /liana/v1/ip-whitelist-rules` (protocol §4): the whitelist, or `null` when it is off.
   *
   * @throws PlatformError when the platform cannot be reached or answers something else.
   */
  async fetchIpWhitelist(): Promise<IpWhitelist | null> {
    const path = '/liana/v1/ip-whitelist-rules';
    const { body } = await this.http.request<{
      data?: { attributes?: { use_ip_whitelist?: unknown; rules?: unknown } };
    }>(path);
    const attributes = body?.data?.attributes;
    if (!attributes || typeof attributes.use_ip_whitelist !== 'boolean') {
      throw new PlatformError(
        'PLATFORM_BAD_RESPONSE',
        `The Canopy platform answered GET ${this.http.url(path)} without data.attributes.use_ip_whitelist.`,
        { url: this.http.url(path) },
      );
    }
    if (!attributes.use_ip_whitelist) return null;
    const rules = Array.isArray(attributes.rules) ? (attributes.rules as IpWhitelistRule[]) : [];
    return createIpWhitelist(rules, this.logger);
  }

  /**
   * Sends the schema unless the platform already has it (protocol §3): `POST
   * /forest/apimaps/hashcheck`, then `POST /forest/apimaps` when asked. Resolves whether the
   * schema was uploaded.
   */
  async sendSchema(schemaFileHash: string, document: unknown): Promise<boolean> {
    const { body } = await this.http.request<{ sendSchema?: unknown }>(
      '/forest/apimaps/hashcheck',
      {
        method: 'POST',
        body: { schemaFileHash },
      },
    );
    if (body?.sendSchema !== true) {
      this.logger('Info', 'The platform already has this schema: nothing to send.');
      return false;
    }
    await this.http.request('/forest/apimaps', {
      method: 'POST',
      body: document,
      timeoutMs: SCHEMA_UPLOAD_TIMEOUT_MS,
    });
    this.logger('Info', 'Schema sent to the platform.');
    return true;
  }

  /** Opens the event stream in the background (failures are logged and retried). */
  subscribeToEvents(): void {
    this.events.start();
  }

  /** Resolves once the event stream is open (tests, and callers that need events at once). */
  waitForEvents(): Promise<void> {
    return this.events.waitUntilOpen();
  }

  /**
   * Closes the event stream, flushes the activity log and the record changes (giving up after
   * `flushTimeoutMs`) and aborts every pending call.
   */
  async close(flushTimeoutMs = 5000): Promise<void> {
    await this.events.close();
    await Promise.all([
      this.activityLogs.close(flushTimeoutMs),
      this.recordChanges.close(flushTimeoutMs),
    ]);
    this.http.close();
  }
}
