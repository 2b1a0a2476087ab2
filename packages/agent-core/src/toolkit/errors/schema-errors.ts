import { ValidationError } from './canopy-error';

function listNames(names: string[]): string {
  return `[${[...names]
    .sort()
    .map((name) => `'${name}'`)
    .join(', ')}]`;
}

/** A collection name that does not exist; lists the available ones. */
export class MissingCollectionError extends ValidationError {
  constructor(name: string, available: string[]) {
    super(`Collection '${name}' not found. Available collections are: ${listNames(available)}.`, {
      code: 'MISSING_COLLECTION',
    });
  }
}

/** A field name that does not exist in a collection; lists the available ones. */
export class MissingFieldError extends ValidationError {
  constructor(collection: string, field: string, available: string[], code = 'MISSING_FIELD') {
    super(
      `The '${collection}.${field}' field was not found. Available fields are: ${listNames(available)}.`,
      { code },
    );
  }
}

/** A column was expected (e.g. a relation key) and the name is unknown or not a column. */
export class MissingColumnError extends MissingFieldError {
  constructor(collection: string, field: string, available: string[]) {
    super(collection, field, available, 'MISSING_COLUMN');
  }
}

/** A relation was expected and the name is unknown. */
export class MissingRelationError extends MissingFieldError {
  constructor(collection: string, field: string, available: string[]) {
    super(collection, field, available, 'MISSING_RELATION');
  }
}

/** A field (or action, chart) name is already used in the collection. */
export class AlreadyDefinedFieldError extends ValidationError {
  constructor(collection: string, field: string, what = 'Field') {
    super(`${what} '${field}' is already defined in collection '${collection}'.`, {
      code: 'ALREADY_DEFINED',
    });
  }
}

/** A `relation:field` path was given where a plain field name of the collection is required. */
export class RelationFieldAccessDeniedError extends ValidationError {
  constructor(collection: string, path: string) {
    super(
      `'${collection}.${path}' is a path through a relation; a field of '${collection}' itself is required here.`,
      { code: 'RELATION_FIELD_ACCESS_DENIED' },
    );
  }
}

/** A field exists but has the wrong kind (a relation where a column is expected, …). */
export class UnexpectedFieldTypeError extends ValidationError {
  constructor(collection: string, field: string, found: string, expected: string[]) {
    super(
      `Unexpected field type: '${collection}.${field}' (found '${found}' expected ${expected
        .map((type) => `'${type}'`)
        .join(' or ')}).`,
      { code: 'UNEXPECTED_FIELD_TYPE' },
    );
  }
}
