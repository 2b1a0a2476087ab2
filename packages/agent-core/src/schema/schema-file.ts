import { readFile, writeFile } from 'node:fs/promises';
import { SchemaFileError } from './schema-file-error';
import { prettyJson } from './pretty-json';
import type { AgentSchema, SchemaCollection } from './schema-json';

/**
 * Writes the schema file, only when its content changed (so file watchers and version control
 * see no change when the schema did not). Resolves whether it wrote.
 */
export async function writeSchemaFile(path: string, schema: AgentSchema): Promise<boolean> {
  return writeIfChanged(path, prettyJson({ collections: schema.collections, meta: schema.meta }));
}

/**
 * Reads the collections of an existing schema file (production mode: never rebuilt).
 *
 * @throws SchemaFileError `SCHEMA_FILE_MISSING` when the file does not exist, `SCHEMA_FILE_INVALID`
 * when it is not a schema file.
 */
export async function readSchemaFile(path: string): Promise<SchemaCollection[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SchemaFileError(
      'SCHEMA_FILE_MISSING',
      `The schema file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ` +
        'In production the agent serves the schema file generated in development: deploy it with ' +
        'the agent, or generate it with agent.generateSchemaOnly().',
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SchemaFileError(
      'SCHEMA_FILE_INVALID',
      `The schema file ${path} is not valid JSON (${(error as Error).message}); regenerate it with agent.generateSchemaOnly().`,
      { cause: error },
    );
  }
  const collections = (parsed as { collections?: unknown })?.collections;
  if (
    !Array.isArray(collections) ||
    !collections.every((collection) => typeof (collection as { name?: unknown })?.name === 'string')
  ) {
    throw new SchemaFileError(
      'SCHEMA_FILE_INVALID',
      `The schema file ${path} has no "collections" array of named collections; regenerate it with agent.generateSchemaOnly().`,
    );
  }
  return collections as SchemaCollection[];
}

/** Writes `content` to `path` unless the file already holds exactly it; resolves whether it wrote. */
export async function writeIfChanged(path: string, content: string): Promise<boolean> {
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === content) return false;
  await writeFile(path, content, 'utf8');
  return true;
}
