/**
 * The schema file is missing (`SCHEMA_FILE_MISSING`) or not a schema file
 * (`SCHEMA_FILE_INVALID`). A local error, checked by {@link SchemaFileError.code}.
 *
 * @example
 * await agent.start().catch((error) => {
 *   if (error.code === 'SCHEMA_FILE_MISSING') console.error('Deploy the schema file with the agent');
 *   throw error;
 * });
 */
export class SchemaFileError extends Error {
  readonly code: 'SCHEMA_FILE_MISSING' | 'SCHEMA_FILE_INVALID';

  constructor(code: SchemaFileError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}
