import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import { getColumn } from '../../../toolkit/schema/schema-utils';
import { CollectionDecorator } from '../collection-decorator';

/** An ISO 4217 currency code (`EUR`, `USD`). */
const CURRENCY = /^[A-Z]{3}$/;

/** Checks a currency given to `addField` or `setFieldCurrency`. */
export function checkCurrency(where: string, currency: string): void {
  if (!CURRENCY.test(currency))
    throw new ValidationError(
      `Invalid currency '${currency}' for '${where}': use an ISO 4217 code such as 'EUR'.`,
    );
}

/** Layer 7 — schema-only overrides such as `disableCount` and `setFieldCurrency`. */
export class SchemaCollectionDecorator extends CollectionDecorator {
  private overrides: Partial<CollectionSchema> = {};
  private readonly currencies = new Map<string, string>();

  overrideSchema(overrides: Partial<CollectionSchema>): void {
    this.overrides = { ...this.overrides, ...overrides };
    this.markSchemaAsDirty();
  }

  /** Declares that a `Number` column holds amounts in `currency` (ISO 4217). */
  setFieldCurrency(name: string, currency: string): void {
    const column = getColumn(this.name, this.childCollection.schema, name);
    if (column.columnType !== 'Number')
      throw new ValidationError(
        `'${this.name}.${name}' is not a Number field: only amounts have a currency.`,
      );
    checkCurrency(`${this.name}.${name}`, currency);
    this.currencies.set(name, currency);
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    const schema = { ...childSchema, ...this.overrides };
    const fields = { ...schema.fields };
    for (const [name, currency] of this.currencies) {
      const column = fields[name];
      if (column?.type === 'Column') fields[name] = { ...column, currency };
    }
    return { ...schema, fields };
  }
}
