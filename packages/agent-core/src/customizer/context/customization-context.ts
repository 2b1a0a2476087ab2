import type { Caller } from '../../toolkit/caller';
import {
  ForbiddenError,
  UnprocessableError,
  ValidationError,
} from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { DataSource } from '../../toolkit/interfaces/data-source';
import { RelaxedCollection, RelaxedDataSource } from './relaxed-collection';

/**
 * What every customization handler receives: the caller and the data source (relaxed), plus
 * helpers that throw the typed errors the HTTP layer maps to status codes.
 */
export class AgentCustomizationContext {
  readonly caller: Caller;

  constructor(
    private readonly realDataSource: DataSource,
    caller: Caller,
  ) {
    this.caller = Object.freeze({ ...caller });
  }

  /** The data source at the layer this context was created in. */
  get dataSource(): RelaxedDataSource {
    return new RelaxedDataSource(this.realDataSource, this.caller);
  }

  /** Rejects the request as bad input (400). */
  throwValidationError(message: string): never {
    throw new ValidationError(message);
  }

  /** Rejects the request as forbidden (403). */
  throwForbiddenError(message: string): never {
    throw new ForbiddenError(message);
  }

  /** Rejects the request as unprocessable (422). */
  throwError(message: string): never {
    throw new UnprocessableError(message);
  }
}

/** A customization context bound to one collection. */
export class CollectionCustomizationContext extends AgentCustomizationContext {
  constructor(
    /** The collection of the layer the context was created in. */
    readonly realCollection: Collection,
    caller: Caller,
  ) {
    super(realCollection.dataSource, caller);
  }

  /** The collection, bound to the caller. */
  get collection(): RelaxedCollection {
    return new RelaxedCollection(this.realCollection, this.caller);
  }
}
