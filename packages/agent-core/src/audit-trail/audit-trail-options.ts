/**
 * The `auditTrail` option of `createAgent`: record one history row per create, update, delete
 * and action run.
 *
 * @example
 * createAgent({ auditTrail: { redact: ['password', 'users.apiKey'] } });
 */
export interface AuditTrailOptions {
  /**
   * Database of the history table (`postgres://…` or `mysql://…`; its driver must be installed).
   * Default: the database of each SQL data source, where rows are written in the same
   * transaction as the change.
   */
  connectionString?: string;
  /** PostgreSQL schema of the table; default: the connection's (`public`). */
  schema?: string;
  /** Name of the table, created by the agent at start; default `canopy_audit_trail`. */
  table?: string;
  /**
   * Fields whose values are masked (`"[redacted]"`) in the rows: `field` in every collection,
   * or `collection.field`.
   */
  redact?: string[];
}

/** The options once validated. */
export interface ResolvedAuditTrailOptions {
  connectionString: string | null;
  schema: string | null;
  table: string;
  redact: readonly string[];
}

export const DEFAULT_AUDIT_TABLE = 'canopy_audit_trail';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function invalid(message: string): Error {
  return new Error(message);
}

/**
 * Validates the `auditTrail` option; `undefined` (no audit trail) gives `null`.
 *
 * @throws Error saying which part is wrong (`resolveAgentOptions` lists it under `auditTrail`).
 */
export function resolveAuditTrailOptions(option: unknown): ResolvedAuditTrailOptions | null {
  if (option === undefined || option === null || option === false) return null;
  if (option === true) option = {};
  if (typeof option !== 'object' || Array.isArray(option)) {
    throw invalid(
      `expected an object { connectionString?, schema?, table?, redact? }, got ${JSON.stringify(option)}.`,
    );
  }
  const { connectionString, schema, table, redact, ...rest } = option as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw invalid(
      `unknown key ${unknown.map((key) => `"${key}"`).join(', ')} (known: connectionString, schema, table, redact).`,
    );
  }
  if (connectionString !== undefined) {
    let url: URL | null = null;
    try {
      url = typeof connectionString === 'string' ? new URL(connectionString) : null;
    } catch {
      url = null;
    }
    if (!url || !/^(postgres|postgresql|mysql|mariadb):$/.test(url.protocol)) {
      throw invalid('connectionString must be a postgres://, mysql:// or mariadb:// URL.');
    }
  }
  for (const [name, value] of [
    ['schema', schema],
    ['table', table],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || !IDENTIFIER.test(value))) {
      throw invalid(
        `${name} must be an SQL identifier (letters, digits, _), got ${JSON.stringify(value)}.`,
      );
    }
  }
  if (
    redact !== undefined &&
    (!Array.isArray(redact) || redact.some((entry) => typeof entry !== 'string' || entry === ''))
  ) {
    throw invalid(
      `redact must list field names ("field" or "collection.field"), got ${JSON.stringify(redact)}.`,
    );
  }
  return {
    connectionString: (connectionString as string | undefined) ?? null,
    schema: (schema as string | undefined) ?? null,
    table: (table as string | undefined) ?? DEFAULT_AUDIT_TABLE,
    redact: (redact as string[] | undefined) ?? [],
  };
}
