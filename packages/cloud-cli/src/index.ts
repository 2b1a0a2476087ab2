// Public API of @canopy/cloud-cli. Named exports only.

// Types for customization code
export type { Agent, MongoConnectionParams } from './cloud-types';
export type { SqlConnectionParams } from '@canopy/datasource-sql';

// The canopy-cloud program, for embedding and testing
export { createProgram, run } from './program';
export { ExitCode } from './exit-code';
export { CliError, isCliError, type CliErrorCode } from './cli-error';
