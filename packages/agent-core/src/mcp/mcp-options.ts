import { McpError } from './mcp-error';

/** The tools of the MCP server (platform protocol §16.6). */
export const MCP_TOOL_NAMES = [
  'describeCollection',
  'list',
  'listRelated',
  'create',
  'update',
  'delete',
  'associate',
  'dissociate',
  'getActionForm',
  'executeAction',
  'uploadActionFile',
] as const;

/** The name of one MCP tool. */
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Default port of the MCP server when it listens on its own (spec §8). */
export const DEFAULT_MCP_SERVER_PORT = 3931;

/** Options of `agent.mountAiMcpServer(options?)`. */
export interface McpServerOptions {
  /**
   * The tools to expose; default: `CANOPY_MCP_ENABLED_TOOLS` (comma-separated) when set, else all.
   * `describeCollection` is always exposed (the other tools need it). Unknown names are refused.
   *
   * @example
   * agent.mountAiMcpServer({ enabledTools: ['list', 'listRelated'] }); // read-only assistant
   */
  enabledTools?: McpToolName[];
  /**
   * Tools to hide, applied after `enabledTools`; default: `CANOPY_MCP_DISABLED_TOOLS`
   * (comma-separated). `describeCollection` cannot be disabled (every other tool needs the
   * collection's fields and actions to build its arguments). Unknown names are refused.
   *
   * @example
   * agent.mountAiMcpServer({ disabledTools: ['delete', 'executeAction'] });
   */
  disabledTools?: McpToolName[];
  /**
   * Largest file `uploadActionFile` accepts, in bytes (after base64 decoding); default
   * `CANOPY_MCP_MAX_UPLOAD_BYTES`, else 5 MiB.
   *
   * @example
   * agent.mountAiMcpServer({ maxUploadBytes: 1_000_000 });
   */
  maxUploadBytes?: number;
  /**
   * Serve the MCP and OAuth routes on their own HTTP server instead of the agent's origin:
   * `true` listens on `MCP_SERVER_PORT` (default 3931), an object picks the port (`0`: any free
   * port) and interface. Tool calls still run in-process through the agent's routes.
   *
   * @example
   * agent.mountAiMcpServer({ standalone: { port: 3931, host: '0.0.0.0' } });
   */
  standalone?: boolean | { port?: number; host?: string };
  /**
   * Public origin advertised in the OAuth metadata (no path); default: the environment's
   * `api_endpoint` on the platform, else the origin each request was sent to.
   *
   * @example
   * agent.mountAiMcpServer({ publicUrl: 'https://admin-api.example.com' });
   */
  publicUrl?: string;
  /**
   * The platform front end where users log in during the OAuth flow; default `CANOPY_APP_URL`,
   * else the platform URL (`serverUrl`).
   *
   * @example
   * agent.mountAiMcpServer({ appUrl: 'https://app.canopy.example.com' });
   */
  appUrl?: string;
  /**
   * Upper bounds of the token lifetimes the MCP server issues (integers; values below 60 are
   * raised to 60).
   *
   * @example
   * agent.mountAiMcpServer({ tokenTtl: { accessTokenSeconds: 900, refreshTokenSeconds: 86_400 } });
   */
  tokenTtl?: { accessTokenSeconds?: number; refreshTokenSeconds?: number };
  /**
   * Domains of the OAuth clients to accept: a client is accepted only if every redirect URI it
   * registered is http(s) on a listed domain or a subdomain of one. Default:
   * `CANOPY_MCP_ALLOWED_OAUTH_CLIENTS` (comma-separated), else any client.
   *
   * @example
   * agent.mountAiMcpServer({ allowedOAuthClients: ['claude.ai', 'example.com'] });
   */
  allowedOAuthClients?: string[];
}

/** Options after validation, defaults applied. */
export interface ResolvedMcpOptions {
  enabledTools: ReadonlySet<McpToolName>;
  maxUploadBytes: number;
  standalone: { port: number; host: string | undefined } | null;
  publicUrl: string | null;
  appUrl: string | null;
  accessTokenSeconds: number | null;
  refreshTokenSeconds: number | null;
  allowedOAuthClients: string[] | null;
}

const KNOWN: ReadonlySet<string> = new Set(MCP_TOOL_NAMES);

function invalid(message: string): McpError {
  return new McpError('INVALID_MCP_OPTIONS', message);
}

/** Default bound of `uploadActionFile` (5 MiB). */
export const DEFAULT_MCP_MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

function toolNames(
  source: string,
  option: readonly string[] | undefined,
  variable: string | undefined,
): string[] | undefined {
  const fromVariable = variable
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const names = option ?? (fromVariable && fromVariable.length > 0 ? fromVariable : undefined);
  if (names === undefined) return undefined;
  const label = option
    ? source
    : `CANOPY_MCP_${source === 'enabledTools' ? 'ENABLED' : 'DISABLED'}_TOOLS`;
  if (!Array.isArray(names)) {
    throw invalid(`${label} must be an array of tool names, got ${JSON.stringify(names)}.`);
  }
  const unknown = names.filter((name) => typeof name !== 'string' || !KNOWN.has(name));
  if (unknown.length > 0) {
    throw invalid(
      `${label} names unknown MCP tools: ${unknown.map((name) => JSON.stringify(name)).join(', ')}. ` +
        `Valid tools: ${MCP_TOOL_NAMES.join(', ')}.`,
    );
  }
  return names;
}

/**
 * The enabled tools: the option, else the comma-separated `CANOPY_MCP_ENABLED_TOOLS`, else all;
 * then the disabled ones (option, else `CANOPY_MCP_DISABLED_TOOLS`) removed;
 * `describeCollection` always kept.
 *
 * @throws McpError `INVALID_MCP_OPTIONS` naming the unknown tools and listing the valid ones, or
 *   when `describeCollection` is disabled.
 */
export function resolveEnabledTools(
  option: readonly string[] | undefined,
  variable: string | undefined,
  disabledOption?: readonly string[],
  disabledVariable?: string,
): Set<McpToolName> {
  const enabled = toolNames('enabledTools', option, variable) ?? [...MCP_TOOL_NAMES];
  const disabled = new Set(toolNames('disabledTools', disabledOption, disabledVariable) ?? []);
  if (disabled.has('describeCollection')) {
    throw invalid(
      `${disabledOption ? 'disabledTools' : 'CANOPY_MCP_DISABLED_TOOLS'} cannot disable describeCollection: ` +
        'the other tools need the fields and actions it describes to build their arguments.',
    );
  }
  return new Set<McpToolName>([
    'describeCollection',
    ...(enabled as McpToolName[]).filter((name) => !disabled.has(name)),
  ]);
}

/**
 * The upload bound: the option, else `CANOPY_MCP_MAX_UPLOAD_BYTES`, else 5 MiB.
 *
 * @throws McpError `INVALID_MCP_OPTIONS` when it is not a positive integer.
 */
export function resolveMaxUploadBytes(option: unknown, variable: string | undefined): number {
  const raw = option ?? (variable && variable.trim() !== '' ? Number(variable) : undefined);
  if (raw === undefined) return DEFAULT_MCP_MAX_UPLOAD_BYTES;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw <= 0) {
    const source = option === undefined ? 'CANOPY_MCP_MAX_UPLOAD_BYTES' : 'maxUploadBytes';
    throw invalid(
      `${source} must be a positive integer of bytes, got ${JSON.stringify(option ?? variable)}.`,
    );
  }
  return raw;
}

/**
 * The standalone port: the option, else `MCP_SERVER_PORT`, else 3931.
 *
 * @throws McpError `INVALID_MCP_OPTIONS` when it is not an integer between 0 and 65535.
 */
export function resolveMcpPort(option: number | undefined, variable: string | undefined): number {
  const raw = option ?? (variable && variable.trim() !== '' ? Number(variable) : undefined);
  const port = raw ?? DEFAULT_MCP_SERVER_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    const source = option === undefined ? 'MCP_SERVER_PORT' : 'standalone.port';
    throw invalid(
      `${source} must be an integer between 0 and 65535, got ${JSON.stringify(option ?? variable)}.`,
    );
  }
  return port;
}

function resolveUrl(name: string, value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`${name} must be an http(s) URL, got ${JSON.stringify(value)}.`);
  }
  return value.replace(/\/+$/, '');
}

function resolveTtl(name: string, value: number | undefined): number | null {
  if (value === undefined) return null;
  if (!Number.isInteger(value) || value <= 0) {
    throw invalid(`tokenTtl.${name} must be a positive integer of seconds, got ${String(value)}.`);
  }
  return Math.max(60, value);
}

function resolveDomains(option: unknown, variable: string | undefined): string[] | null {
  const source = option === undefined ? 'CANOPY_MCP_ALLOWED_OAUTH_CLIENTS' : 'allowedOAuthClients';
  const domains =
    option ??
    variable
      ?.split(',')
      .map((domain) => domain.trim())
      .filter(Boolean);
  if (domains === undefined || (Array.isArray(domains) && domains.length === 0 && !option)) {
    return null;
  }
  const valid = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;
  if (
    !Array.isArray(domains) ||
    domains.some((domain) => typeof domain !== 'string' || !valid.test(domain))
  ) {
    throw invalid(
      `${source} must list domain names such as "example.com", got ${JSON.stringify(domains)}.`,
    );
  }
  return domains.map((domain: string) => domain.toLowerCase());
}

/**
 * Validates `mountAiMcpServer` options against the environment variables.
 *
 * @throws McpError `INVALID_MCP_OPTIONS` saying which option is wrong and what it should be.
 */
export function resolveMcpOptions(
  options: McpServerOptions = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedMcpOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalid(`mountAiMcpServer expects an options object, got ${JSON.stringify(options)}.`);
  }
  const { standalone } = options;
  const settings = typeof standalone === 'object' && standalone !== null ? standalone : {};
  const publicUrl = resolveUrl('publicUrl', options.publicUrl);
  if (publicUrl !== null && new URL(publicUrl).pathname !== '/') {
    throw invalid(`publicUrl must be an origin without a path, got ${JSON.stringify(publicUrl)}.`);
  }
  return {
    enabledTools: resolveEnabledTools(
      options.enabledTools,
      env.CANOPY_MCP_ENABLED_TOOLS,
      options.disabledTools,
      env.CANOPY_MCP_DISABLED_TOOLS,
    ),
    maxUploadBytes: resolveMaxUploadBytes(options.maxUploadBytes, env.CANOPY_MCP_MAX_UPLOAD_BYTES),
    standalone: standalone
      ? { port: resolveMcpPort(settings.port, env.MCP_SERVER_PORT), host: settings.host }
      : null,
    publicUrl,
    appUrl: resolveUrl('appUrl', options.appUrl ?? env.CANOPY_APP_URL),
    accessTokenSeconds: resolveTtl('accessTokenSeconds', options.tokenTtl?.accessTokenSeconds),
    refreshTokenSeconds: resolveTtl('refreshTokenSeconds', options.tokenTtl?.refreshTokenSeconds),
    allowedOAuthClients: resolveDomains(
      options.allowedOAuthClients,
      env.CANOPY_MCP_ALLOWED_OAUTH_CLIENTS,
    ),
  };
}
