import { ValidationError } from '../../toolkit/errors/canopy-error';
import { Page } from '../../toolkit/query/page';

/** Default page size of list routes (§6.5). */
export const DEFAULT_PAGE_SIZE = 15;

/**
 * Upper bound on `page[size]`. The protocol has none; we refuse sizes above it with the same
 * 400 so one request cannot ask a data source for millions of rows (CSV export is the way).
 */
export const MAX_PAGE_SIZE = 10_000;

/** `page[number]` (1-based) and `page[size]` → a {@link Page}; bad values → 400. */
export function parsePage(number: unknown, size: unknown): Page {
  const pageNumber = number === undefined || number === null || number === '' ? 1 : Number(number);
  const pageSize =
    size === undefined || size === null || size === '' ? DEFAULT_PAGE_SIZE : Number(size);
  if (
    !Number.isInteger(pageNumber) ||
    !Number.isInteger(pageSize) ||
    pageNumber <= 0 ||
    pageSize <= 0 ||
    pageSize > MAX_PAGE_SIZE ||
    !Number.isSafeInteger((pageNumber - 1) * pageSize)
  ) {
    throw new ValidationError(
      `Invalid pagination [limit: ${String(size)}, skip: ${String(number)}]: page[number] and page[size] must be integers ≥ 1, page[size] at most ${MAX_PAGE_SIZE}`,
    );
  }
  return new Page((pageNumber - 1) * pageSize, pageSize);
}
