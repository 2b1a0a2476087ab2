import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import { Sort } from '../../toolkit/query/sort';
import { resolveColumnPath } from '../../toolkit/validation/field-path';
import { createPerCollectionCache } from '../../operations/query/per-collection-cache';

/**
 * `sort=-paidAt,customer.fullName` (§6.4): `-` means descending and the first `.` of a path
 * becomes `:`. Unknown fields → 400 `Invalid sort: <original string>`.
 */
export function parseSort(collection: Collection, raw: string | undefined): Sort | null {
  if (raw === undefined || raw === '') return null;
  return sortCache(collection, raw, () => parseSortText(collection, raw));
}

/** Sorts are immutable once built: each distinct sort text is parsed once per collection. */
const sortCache = createPerCollectionCache<Sort>();

function parseSortText(collection: Collection, raw: string): Sort {
  const clauses = raw.split(',').map((part) => {
    const trimmed = part.trim();
    const ascending = !trimmed.startsWith('-');
    return { field: ascending ? trimmed : trimmed.slice(1), ascending };
  });
  return buildSort(collection, clauses, raw);
}

/** One sort clause as an adapter reads it: a field (`relation.field` or `relation:field`). */
export interface SortRequest {
  readonly field: string;
  readonly ascending: boolean;
}

/**
 * The sort of one clause (the MCP tools' `sort`), checked as {@link parseSort} checks the query
 * string's: an unknown field is `Invalid sort: <clause as the query string writes it>`.
 */
export function toSort(collection: Collection, clause: SortRequest): Sort {
  return buildSort(collection, [clause], `${clause.ascending ? '' : '-'}${clause.field}`);
}

function buildSort(collection: Collection, clauses: readonly SortRequest[], raw: string): Sort {
  return new Sort(
    ...clauses.map(({ field: path, ascending }) => {
      const field = path.replace('.', ':');
      try {
        resolveColumnPath(collection, field);
      } catch (error) {
        throw new ValidationError(`Invalid sort: ${raw}`, { cause: error });
      }
      return { field, ascending };
    }),
  );
}
