import { ApiError } from '../errors';

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
    if (
      Array.isArray(decoded) &&
      decoded.length === 2 &&
      Number.isSafeInteger(decoded[0]) &&
      typeof decoded[1] === 'string' &&
      /^\d{1,19}$/.test(decoded[1])
    ) {
      return { createdAt: new Date(decoded[0] as number), id: decoded[1] };
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
    if (Array.isArray(decoded) && decoded.length === 1 && Number.isSafeInteger(decoded[0])) {
      return decoded[0] as number;
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
