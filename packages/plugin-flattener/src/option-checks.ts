import { FlattenerError } from './flattener-error';

/** Checks that an optional option is a list of non-empty strings; returns it (or `[]`). */
export function stringList(where: string, name: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === '')) {
    throw new FlattenerError(
      'FLATTENER_INVALID_OPTION',
      `${where}: options.${name} must be a list of non-empty strings, got ${JSON.stringify(value)}.`,
    );
  }
  return value as string[];
}

/** Checks that an optional option is a boolean; returns it (or `undefined`). */
export function optionalBoolean(where: string, name: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    throw new FlattenerError(
      'FLATTENER_INVALID_OPTION',
      `${where}: options.${name} must be true or false, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** Checks the options argument itself is an object. */
export function optionsObject(where: string, options: unknown): Record<string, unknown> {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new FlattenerError(
      'FLATTENER_INVALID_OPTION',
      `${where}: the options must be an object, got ${JSON.stringify(options)}.`,
    );
  }
  return options as Record<string, unknown>;
}
