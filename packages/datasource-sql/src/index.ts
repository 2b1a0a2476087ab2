// Public API of @canopy/datasource-sql. Named exports only, grouped by concern.

// Data source
export {
  createSqlDataSource,
  openSqlDataSource,
  introspect,
  type SqlDataSourceOptions,
} from './create-sql-data-source';
export { SqlDataSource } from './sql-data-source';
export { SqlCollection } from './collection/sql-collection';

// Connections
export type {
  SqlConnectionParams,
  SqlDialect,
  SslMode,
  SqlPoolOptions,
} from './connection/sql-connection-params';

// Embedded PostgreSQL (Canopy's zero-install default)
export {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
} from './embedded/start-embedded-postgres';

// Serialized introspection
export {
  INTROSPECTION_SOURCE,
  INTROSPECTION_VERSION,
  type SqlIntrospection,
  type IntrospectedTable,
  type IntrospectedColumn,
  type IntrospectedType,
  type IntrospectedDefault,
  type IntrospectedForeignKey,
  type ScalarKind,
} from './introspection/introspection';

// Errors
export {
  SqlDataSourceError,
  isSqlDataSourceError,
  type SqlDataSourceErrorCode,
} from './errors/sql-data-source-error';
