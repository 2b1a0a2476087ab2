// Test databases: a fresh namespace per test file on each database Canopy supports.
export {
  createTestDatabase,
  createPostgresTestDatabase,
  createMariaDbTestDatabase,
  createEmbeddedPostgresTestDatabase,
  useTestDatabase,
  DEFAULT_PG_URL,
  DEFAULT_MYSQL_URL,
  type TestDatabase,
  type TestDialect,
} from './test-database';

// Embedded PostgreSQL (PGlite behind its wire-protocol socket server), from the data source.
export {
  startEmbeddedPostgres,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
} from '@canopy/datasource-sql';
