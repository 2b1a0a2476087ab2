/** Stable codes of the errors this package throws outside the data model's own families. */
export type SqlDataSourceErrorCode =
  | 'INVALID_CONNECTION_OPTIONS'
  | 'DRIVER_NOT_INSTALLED'
  | 'DATABASE_CONNECT_ERROR'
  | 'DATABASE_CONNECT_TIMEOUT'
  | 'INVALID_INTROSPECTION'
  | 'UNKNOWN_NATIVE_CONNECTION';

/**
 * An error of the SQL data source that is not about a query (configuration, connection,
 * serialized introspection). Check it by `code`, never by `instanceof`.
 */
export class SqlDataSourceError extends Error {
  /** Stable machine-readable code. */
  readonly code: SqlDataSourceErrorCode;

  constructor(code: SqlDataSourceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SqlDataSourceError';
    this.code = code;
  }
}

/** Whether `error` is a {@link SqlDataSourceError}, optionally with a given code. */
export function isSqlDataSourceError(
  error: unknown,
  code?: SqlDataSourceErrorCode,
): error is SqlDataSourceError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { name?: unknown; code?: unknown };
  return candidate.name === 'SqlDataSourceError' && (code === undefined || candidate.code === code);
}
