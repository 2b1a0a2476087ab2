import { ValidationError } from '@canopy/agent-core';

/** Stable codes of the flattener's errors. */
export type FlattenerErrorCode =
  | 'FLATTENER_NOT_ON_COLLECTION'
  | 'FLATTENER_MISSING_OPTION'
  | 'FLATTENER_INVALID_OPTION'
  | 'FLATTENER_UNKNOWN_FIELD'
  | 'FLATTENER_UNSUPPORTED_TYPE'
  | 'FLATTENER_UNKNOWN_PATH'
  | 'FLATTENER_NOTHING_TO_FLATTEN';

/**
 * A misuse of a flattener plugin, thrown while the agent starts. It is a `validation` error of
 * agent-core; check it by its `code` (see {@link isFlattenerError}).
 */
export class FlattenerError extends ValidationError {
  declare readonly code: FlattenerErrorCode;

  constructor(code: FlattenerErrorCode, message: string) {
    super(message, { code });
  }
}

/**
 * Whether `error` is a flattener error, optionally with a given code (checked by name, so it works
 * across two installed copies of the package).
 *
 * @example
 * if (isFlattenerError(error, 'FLATTENER_UNKNOWN_FIELD')) console.error(error.message);
 */
export function isFlattenerError(
  error: unknown,
  code?: FlattenerErrorCode,
): error is FlattenerError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = (error as { code?: unknown }).code;
  return typeof candidate === 'string' && candidate.startsWith('FLATTENER_')
    ? code === undefined || candidate === code
    : false;
}
