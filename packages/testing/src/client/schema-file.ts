import { readFile } from 'node:fs/promises';

/** A form field as the schema file (and the load hook) describe it. */
export interface SchemaFormField {
  field: string;
  label?: string;
  type: unknown;
  value?: unknown;
  defaultValue?: unknown;
  hook?: string | null;
  reference?: string | null;
  enums?: string[] | null;
  isRequired?: boolean;
  isReadOnly?: boolean;
  widgetEdit?: { name: string; parameters: Record<string, unknown> } | null;
  [key: string]: unknown;
}

/** An action of the schema file (platform protocol §13.5). */
export interface SchemaFileAction {
  id: string;
  name: string;
  type: 'single' | 'bulk' | 'global';
  endpoint: string;
  download?: boolean;
  fields: SchemaFormField[];
  layout?: unknown[];
  hooks: { load: boolean; change: unknown[] };
}

/** The schema file as the client reads it. */
export interface SchemaFile {
  collections: { name: string; actions: SchemaFileAction[]; [key: string]: unknown }[];
  meta?: Record<string, unknown>;
}

/** Reads and checks the agent's schema file; a wrong path or content says so. */
export async function readSchemaFile(path: string): Promise<SchemaFile> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `Provide a right schema path: could not read the agent schema at '${path}' (${(error as Error).message}). Start the agent in development mode first: it writes this file.`,
    );
  }
  const collections = (parsed as { collections?: unknown } | null)?.collections;
  if (!Array.isArray(collections)) {
    throw new Error(`Provide a right schema path: '${path}' has no "collections" array.`);
  }
  return {
    ...(parsed as object),
    collections: collections.map((collection: { actions?: unknown }) => ({
      ...collection,
      actions: Array.isArray(collection.actions) ? collection.actions : [],
    })),
  } as SchemaFile;
}
