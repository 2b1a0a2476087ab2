import type {
  ActivityLogReport,
  AgentActivityLogAction,
  IpRule,
  RecordChangedEvent,
} from '@canopy/platform-protocol';
import type { CallerIdentity } from '../toolkit/caller';
import type { DataSource } from '../toolkit/interfaces/data-source';
import type { Logger, LoggerLevel } from '../toolkit/interfaces/logger';
import type { PermissionSource } from './permission-source';

/**
 * The services the agent builds at start (or restart) and hands to its HTTP layer, MCP server and
 * AI proxy. The lifecycle (`agent.ts`, `platform/`) implements them; `http/` only consumes them.
 * This file is the contract between the two sides.
 */
export interface AgentServices {
  /** The customized data source (the top of the decorator stack). */
  readonly dataSource: DataSource;
  readonly options: AgentHttpOptions;
  readonly logger: Logger;
  /** Platform permissions, cached and invalidated by server-sent events. */
  readonly permissions: PermissionSource;
  /** Where every agent operation is reported (queued, sent in batches off the request path). */
  readonly activityLogs: ActivityLogRecorder;
  /**
   * Where the records each write changed are reported, for the Console's live view (platform
   * protocol §7.1); absent without a platform (standalone and test setups): nothing is reported.
   */
  readonly recordChanges?: RecordChangeRecorder;
  /** The IP whitelist fetched at start; `null` when disabled. */
  readonly ipWhitelist: IpWhitelist | null;
  /** OpenID Connect login against the platform (routes `/authentication*`). */
  readonly authentication: AuthenticationClient;
  /** Sessions signed out on the platform; absent: none is refused for that reason. */
  readonly revocations?: SessionRevocations;
}

/**
 * The agent session tokens signed out on the platform (the user signed out of the Console):
 * those of a user issued at or before the sign-out are refused until they expire.
 */
export interface SessionRevocations {
  /** Whether the session token of `userId` issued at `issuedAt` (seconds) was signed out. */
  isRevoked(userId: number, issuedAt: number): boolean;
}

/** The agent options the HTTP layer needs (already validated, defaults applied). */
export interface AgentHttpOptions {
  /** HMAC secret of session tokens (HS256). Never logged. */
  readonly authSecret: string;
  /** Route prefix, default `/forest`. */
  readonly prefix: string;
  readonly isProduction: boolean;
  readonly useUnsafeActionEndpoint: boolean;
  /**
   * Environment secret: verifies the platform-signed approval requests of actions (HS256,
   * agent-http-protocol §9.2 step 2). Without it, signed approvals are refused. Never logged.
   */
  readonly envSecret?: string;
  /**
   * The agent's `loggerLevel` (default `Info`): above `Info`, the access log costs nothing.
   *
   * @example
   * { loggerLevel: 'Warn' }
   */
  readonly loggerLevel?: LoggerLevel;
  /** The record history routes are mounted (`canUseAuditTrail` in capabilities). */
  readonly auditTrail?: boolean;
  /**
   * Origins whose pages may call the agent from a browser (CORS allow-list): the Console's origin
   * and the `allowedOrigins` option. No other origin gets CORS headers.
   */
  readonly corsOrigins?: readonly string[];
}

/** The `action` values an agent reports (the public API's activity-log actions it can cause). */
export type AgentActivityAction = AgentActivityLogAction;

/**
 * One operation to report: the wire's log (platform protocol §10) without the id and the time,
 * which the recorder adds. `errorMessage` is what the user was shown, never a stack or an
 * internal detail.
 */
export interface ActivityLogInput extends Omit<ActivityLogReport, 'id' | 'createdAt' | 'action'> {
  action: AgentActivityAction;
}

/** Queues activity logs; never throws and never waits on the network. */
export interface ActivityLogRecorder {
  record(entry: ActivityLogInput): void;
}

/** Queues record changes (platform protocol §7.1); never throws and never waits on the network. */
export interface RecordChangeRecorder {
  record(change: RecordChangedEvent): void;
}

/** One rule of the IP whitelist (platform protocol §4; the wire type of @canopy/platform-protocol). */
export type IpWhitelistRule = IpRule;

export interface IpWhitelist {
  readonly rules: readonly IpWhitelistRule[];
  /** Whether `ip` is allowed (loopback callers without a forwarded address are exempt upstream). */
  isAllowed(ip: string): boolean;
}

/** The user a login resolved to (platform protocol §6.5), before the agent signs its token. */
export type AuthenticatedUser = CallerIdentity;

/** OpenID Connect relying party of the platform (platform protocol §6.1–6.5). */
export interface AuthenticationClient {
  /** The platform URL to send the browser to, carrying `{"renderingId": n}` as state. */
  getAuthorizationUrl(renderingId: number): Promise<string>;
  /**
   * Exchanges the callback's code and resolves the user (id token checked, user info fetched).
   * Rejects with an `AuthenticationError` (`platform/authentication-error.ts`, matched by name)
   * whose `status` is 401 for an OpenID Connect protocol error (body
   * `{"error": error, "error_description": description, "state": state}`) or 403 when the
   * platform refuses the user on this rendering (body `{"error": 403, "error_description": ...}`).
   */
  handleCallback(code: string, state: string): Promise<AuthenticatedUser>;
}
