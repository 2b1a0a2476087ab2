export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  restrictToOwner,
  startEmbeddedPostgres,
} from './start-embedded-postgres';
