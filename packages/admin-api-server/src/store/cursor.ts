import { ApiError } from '../errors';
import {
  EARLIEST_INSTANT_MS,
  LATEST_INSTANT_MS,
  readBigId,
  readId,
} from '../validation/input-rules';

/** A position in a list ordered by `(created_at DESC, id DESC)`. */
export interface TimeCursor {
  readonly createdAt: Date;
  readonly id: string;
}

/** Encodes a position as an opaque, URL-safe string. */
export function encodeTimeCursor(cursor: TimeCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.getTime(), cursor.id])).toString('base64url');
}

/** Decodes a `cursor` parameter; a 400 `invalid_cursor` when it was not produced by this API. */
export function decodeTimeCursor(value: string): TimeCursor {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    // A position the API could have produced: an instant PostgreSQL holds and a bigint id.
    if (Array.isArray(decoded) && decoded.length === 2) {
      const [time, id] = decoded as unknown[];
      if (
        Number.isSafeInteger(time) &&
        (time as number) >= EARLIEST_INSTANT_MS &&
        (time as number) <= LATEST_INSTANT_MS &&
        readBigId(id) !== undefined
      ) {
        return { createdAt: new Date(time as number), id: id as string };
      }
    }
  } catch {
    // falls through to the error below
  }
  throw new ApiError(
    400,
    'invalid_cursor',
    'Parameter "cursor" must be the nextCursor value of a previous response of this endpoint.',
  );
}

/** Encodes a position in a list ordered by `id DESC`. */
export function encodeIdCursor(id: number): string {
  return Buffer.from(JSON.stringify([id])).toString('base64url');
}

/** Decodes an id cursor; a 400 `invalid_cursor` otherwise. */
export function decodeIdCursor(value: string): number {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    const id = Array.isArray(decoded) && decoded.length === 1 ? readId(decoded[0]) : undefined;
    if (id !== undefined) return id;
  } catch {
    // falls through to the error below
  }
  throw new ApiError(
    400,
    'invalid_cursor',
    'Parameter "cursor" must be the nextCursor value of a previous response of this endpoint.',
  );
}
