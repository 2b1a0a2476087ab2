import type { SqlDialect } from '../connection/sql-connection-params';
import { SqlDataSourceError } from '../errors/sql-data-source-error';
import {
  INTROSPECTION_SOURCE,
  INTROSPECTION_VERSION,
  type SqlIntrospection,
} from './introspection';

function invalid(message: string): SqlDataSourceError {
  return new SqlDataSourceError('INVALID_INTROSPECTION', message);
}

/**
 * Checks a serialized introspection given back to the data source: same source and dialect,
 * a version this package reads, tables and views as arrays.
 */
export function readIntrospection(value: unknown, dialect: SqlDialect): SqlIntrospection {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (typeof parsed !== 'object' || parsed === null) {
    throw invalid('The introspection must be the object (or JSON) returned by introspect().');
  }
  const candidate = parsed as Partial<SqlIntrospection>;
  if (candidate.source !== INTROSPECTION_SOURCE) {
    throw invalid(
      `This introspection was not produced by ${INTROSPECTION_SOURCE} (source: ${JSON.stringify(candidate.source)}). Introspect again with this package.`,
    );
  }
  if (typeof candidate.version !== 'number' || candidate.version > INTROSPECTION_VERSION) {
    throw invalid(
      `This version of introspection (${String(candidate.version)}) is newer than this package version (${INTROSPECTION_VERSION}). Please update ${INTROSPECTION_SOURCE}.`,
    );
  }
  const sameFamily = (a?: SqlDialect, b?: SqlDialect) =>
    a === b || (['mysql', 'mariadb'].includes(a ?? '') && ['mysql', 'mariadb'].includes(b ?? ''));
  if (!sameFamily(candidate.dialect, dialect)) {
    throw invalid(
      `This introspection describes a ${String(candidate.dialect)} database, but the connection is ${dialect}.`,
    );
  }
  if (!Array.isArray(candidate.tables) || !Array.isArray(candidate.views)) {
    throw invalid('The introspection must have `tables` and `views` arrays.');
  }
  return { ...(candidate as SqlIntrospection), warnings: candidate.warnings ?? [] };
}
