import { ValidationError } from '@canopy/agent-core/toolkit';

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item));
  }
  return false;
}

/**
 * PostgreSQL cannot store NUL characters in text or json: refuse them up front with a clear
 * message instead of a driver error.
 */
export function assertStorable(path: string, value: unknown, dialect: string): void {
  if (dialect === 'postgres' && containsNul(value)) {
    throw new ValidationError(
      `The value of "${path}" contains a NUL character (\\u0000), which PostgreSQL cannot store in text. Remove it.`,
    );
  }
}
