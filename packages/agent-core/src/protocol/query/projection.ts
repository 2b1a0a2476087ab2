import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import { Projection } from '../../toolkit/query/projection';
import { validateProjection } from '../../toolkit/validation/query-validators';
import type { FlatQuery } from './query-string';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The names of a comma-separated field list, trimmed. An empty name (`fields[orders]=,,,`,
 * `a,,b`) is refused: a list that names nothing is a mistake, not a request for the default.
 */
function fieldNames(list: string, source: string): string[] {
  const names = list.split(',').map((item) => item.trim());
  if (names.some((name) => name === '')) {
    throw new ValidationError(`empty field name in ${source} (${JSON.stringify(list)})`);
  }
  return names;
}

/**
 * Reads the requested projection (§6.2): the `Forest-Projection` header when present and
 * non-empty, else `fields[<key>]` with `fields[<relation>]` companions, else `null` (the caller
 * then uses the default projection). Invalid projections are 400 errors.
 */
export function readRequestedProjection(
  collection: Collection,
  query: FlatQuery,
  header: string | undefined,
  key: string = collection.name,
): Projection | null {
  if (header !== undefined && header.trim() !== '') {
    try {
      const projection = new Projection(...fieldNames(header, 'the header'));
      validateProjection(collection, projection);
      return projection;
    } catch (error) {
      throw new ValidationError(`Invalid Forest-Projection header: ${describe(error)}`, {
        cause: error,
      });
    }
  }
  const fields = query[`fields[${key}]`];
  if (fields === undefined || fields === '') return null;
  let names: string[];
  try {
    names = fieldNames(fields, `'fields[${key}]'`);
  } catch (error) {
    throw invalidProjection(error);
  }
  return projectionOf(collection, names, (relation) => {
    const sub = query[`fields[${relation}]`];
    return sub === undefined || sub === '' ? undefined : fieldNames(sub, `'fields[${relation}]'`);
  });
}

/** The fields asked on a to-one relation (`fields[<relation>]`), `undefined` when none. */
export type RelationFields = (relation: string) => readonly string[] | undefined;

/**
 * The projection of the fields a read asks for (§6.2): `names` of the collection, each to-one
 * relation among them with the fields read on it. Invalid projections are 400 errors.
 */
export function projectionOf(
  collection: Collection,
  names: readonly string[],
  relationFields: RelationFields,
): Projection {
  try {
    const paths: string[] = [];
    for (const name of names) {
      const field = collection.schema.fields[name];
      if (field?.type === 'ManyToOne' || field?.type === 'OneToOne') {
        const sub = relationFields(name);
        if (sub === undefined) {
          throw new ValidationError(
            `the relation '${name}' needs the fields to read in 'fields[${name}]'`,
          );
        }
        paths.push(...sub.map((item) => `${name}:${item}`));
      } else {
        paths.push(name);
      }
    }
    const projection = new Projection(...paths).union();
    validateProjection(collection, projection);
    return projection;
  } catch (error) {
    throw invalidProjection(error);
  }
}

function invalidProjection(error: unknown): ValidationError {
  return new ValidationError(`Invalid projection: ${describe(error)}`, { cause: error });
}
