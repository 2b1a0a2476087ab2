import { checkCurrency } from './decorators/schema/schema-collection';
import { ValidationError } from '../toolkit/errors/canopy-error';
import type { Operator } from '../toolkit/query/operators';
import type { SortClause } from '../toolkit/query/sort';
import { type RecordData, getFieldValue, unflattenRecord } from '../toolkit/record/record-utils';
import type { CollectionSchema } from '../toolkit/schema/collection-schema';
import type { ColumnType, PrimitiveType } from '../toolkit/schema/column-type';
import { getPrimaryKeys } from '../toolkit/schema/schema-utils';
import { allowedOperatorsForType } from '../toolkit/validation/condition-tree-validator';
import { resolveColumnPath } from '../toolkit/validation/field-path';
import type { ActionDefinition, AnyActionDefinition } from './action/action-definition';
import type { CollectionCustomizationContext } from './context/customization-context';
import type { ApplyingState, DataSourceCustomizer } from './data-source-customizer';
import type { BinaryMode } from './decorators/binary/binary-collection';
import type { CollectionChartDefinition } from './decorators/chart/chart-collection';
import type { ComputedDefinition } from './decorators/computed/computed-definition';
import type { HookHandler, HookPosition, HookType } from './decorators/hook/hook-context';
import type { OperatorReplacer } from './decorators/operators-emulate/operators-emulate-collection';
import type {
  CreateOverrideHandler,
  DeleteOverrideHandler,
  UpdateOverrideHandler,
} from './decorators/override/override-collection';
import type { SearchReplacer } from './decorators/search/search-collection';
import type { SegmentDefinition } from './decorators/segment/segment-collection';
import type { WriteDefinition } from './decorators/write/write-replace-collection';
import type { Plugin } from './plugin';

/** An external relation (`addExternalRelation`): related data computed from the record. */
export interface ExternalRelationDefinition {
  /** Field name → primitive type of the related objects. */
  schema: Record<string, PrimitiveType>;
  listRecords(
    record: RecordData,
    context: CollectionCustomizationContext,
  ): Promise<RecordData[]> | RecordData[];
  /** Fields of the record `listRecords` needs (default: the primary keys). */
  dependencies?: string[];
}

/**
 * Customizes one collection (spec §4.3). Every method returns the customizer and only queues
 * work, validated when customizations are applied. Fields are always named by their original
 * names, even after `renameField` or `removeField`.
 *
 * @example
 * agent.customizeCollection('books', (books) =>
 *   books
 *     .addManyToOneRelation('author', 'authors', { foreignKey: 'authorId' })
 *     .importField('authorName', { path: 'author:lastName' })
 *     .addSegment('cheap', { field: 'price', operator: 'LessThan', value: 10 }));
 */
export class CollectionCustomizer {
  constructor(
    private readonly dataSourceCustomizer: DataSourceCustomizer,
    /** The collection's name (after data-source-level renaming). */
    readonly name: string,
  ) {}

  private queue(task: (state: ApplyingState) => void | Promise<void>): this {
    this.dataSourceCustomizer.queue(task);
    return this;
  }

  /** The collection schema as seen under the presentation layers (while applying). */
  get schema(): CollectionSchema {
    return this.dataSourceCustomizer
      .currentState('schema')
      .stack.validation.getCollection(this.name).schema;
  }

  /** Loads a plugin on this collection. */
  use<Options>(plugin: Plugin<Options>, options?: Options): this {
    return this.queue(({ logger }) => plugin(this.dataSourceCustomizer, this, options, logger));
  }

  /** Adds an action (spec §2.4); re-adding a name replaces it. */
  addAction(name: string, definition: AnyActionDefinition): this {
    return this.queue(({ stack }) =>
      stack.action
        .getCollection(this.name)
        .addAction(name, definition as unknown as ActionDefinition),
    );
  }

  /** Adds a computed field (spec §2.6). */
  addField(name: string, definition: ComputedDefinition): this {
    return this.queue(({ stack, logger }) => {
      if ((definition?.columnType as string) === 'Timeonly') {
        logger(
          'Warn',
          `Computed field '${this.name}.${name}': the 'Timeonly' type is deprecated, 'Time' is used.`,
        );
        definition = { ...definition, columnType: 'Time' };
      }
      if (definition?.currency !== undefined)
        checkCurrency(`${this.name}.${name}`, definition.currency);
      if (!Array.isArray(definition?.dependencies)) {
        throw new ValidationError(
          `Computed field '${this.name}.${name}' needs 'dependencies': the list of field paths its getValues reads (e.g. ['firstName', 'author:name']).`,
        );
      }
      const early = stack.earlyComputed.getCollection(this.name);
      const resolvesEarly = definition.dependencies.every((path) => {
        try {
          resolveColumnPath(early, path);
          return true;
        } catch {
          return false;
        }
      });
      const layer = resolvesEarly ? stack.earlyComputed : stack.lateComputed;
      layer.getCollection(this.name).registerComputed(name, definition);
    });
  }

  /** Copies a column reachable through ManyToOne/OneToOne relations (`path` like `author:name`). */
  importField(name: string, options: { path: string; readonly?: boolean }): this {
    return this.queue(({ stack }) => {
      // The target as customizations so far expose it (a computed field made writable counts).
      const collection = stack.validation.getCollection(this.name);
      let target;
      try {
        target = resolveColumnPath(collection, options.path).schema;
      } catch (error) {
        if ((error as { code?: string }).code === 'UNEXPECTED_FIELD_TYPE') {
          throw new ValidationError(
            `Invalid options.path '${options.path}' of importField '${this.name}.${name}': only ManyToOne and OneToOne relations can be followed.`,
          );
        }
        throw error;
      }
      if (options.readonly === false && target.isReadOnly) {
        throw new ValidationError(
          `Readonly option should not be false because the field "${options.path}" is not writable`,
        );
      }
      const { path } = options;
      this.addField(name, {
        columnType: target.columnType,
        defaultValue: target.defaultValue,
        enumValues: target.enumValues,
        ...(target.currency ? { currency: target.currency } : {}),
        dependencies: [path],
        // An empty relation on the way imports null, as a column of that record would read.
        getValues: (records) => records.map((record) => getFieldValue(record, path) ?? null),
      });
      for (const operator of target.filterOperators ?? []) {
        this.replaceFieldOperator(name, operator, (value) => ({ field: path, operator, value }));
      }
      if (target.isSortable) this.replaceFieldSorting(name, [{ field: path, ascending: true }]);
      if (!options.readonly && !target.isReadOnly) {
        this.replaceFieldWriting(name, (value) => unflattenRecord({ [path]: value }));
      }
    });
  }

  /** Renames a field in the exposed schema. */
  renameField(currentName: string, newName: string): this {
    return this.queue(({ stack }) =>
      stack.renameField.getCollection(this.name).renameField(currentName, newName),
    );
  }

  /** Hides fields from the exposed schema (still usable by customizations). */
  removeField(...names: string[]): this {
    return this.queue(({ stack }) => {
      for (const name of names) stack.publication.getCollection(this.name).hideField(name);
    });
  }

  /** Adds a validation rule enforced on create and update. */
  addFieldValidation(name: string, operator: Operator, value?: unknown): this {
    return this.queue(({ stack }) =>
      stack.validation.getCollection(this.name).addValidation(name, { operator, value }),
    );
  }

  /** Marks a field optional in the schema (the database may still refuse empty values). */
  setFieldNullable(name: string): this {
    return this.queue(({ stack }) =>
      stack.validation.getCollection(this.name).setFieldNullable(name),
    );
  }

  /**
   * Declares that a `Number` column holds amounts of money in `currency` (ISO 4217, `EUR`): the
   * schema file carries it and the Console shows the values as amounts. For a computed field, give
   * `currency` to `addField`.
   */
  setFieldCurrency(name: string, currency: string): this {
    return this.queue(({ stack }) =>
      stack.schema.getCollection(this.name).setFieldCurrency(name, currency),
    );
  }

  /** Replaces how a field is written: the handler returns a patch of other fields. */
  replaceFieldWriting(name: string, definition: WriteDefinition): this {
    return this.queue(({ stack }) =>
      stack.writeReplace.getCollection(this.name).replaceFieldWriting(name, definition),
    );
  }

  /** Exposes a binary field as a data URI (`datauri`) or hex string (`hex`). */
  replaceFieldBinaryMode(name: string, mode: BinaryMode): this {
    return this.queue(({ stack }) =>
      stack.binary.getCollection(this.name).setBinaryMode(name, mode),
    );
  }

  /** Adds a ManyToOne relation: `foreignKey` is a column of this collection. */
  addManyToOneRelation(
    name: string,
    foreignCollection: string,
    options: { foreignKey: string; foreignKeyTarget?: string },
  ): this {
    return this.queue(({ stack }) =>
      stack.relation
        .getCollection(this.name)
        .addRelation(name, { type: 'ManyToOne', foreignCollection, ...options }),
    );
  }

  /** Adds a OneToMany relation: `originKey` is a column of the foreign collection. */
  addOneToManyRelation(
    name: string,
    foreignCollection: string,
    options: { originKey: string; originKeyTarget?: string },
  ): this {
    return this.queue(({ stack }) =>
      stack.relation
        .getCollection(this.name)
        .addRelation(name, { type: 'OneToMany', foreignCollection, ...options }),
    );
  }

  /** Adds a OneToOne relation: `originKey` is a column of the foreign collection. */
  addOneToOneRelation(
    name: string,
    foreignCollection: string,
    options: { originKey: string; originKeyTarget?: string },
  ): this {
    return this.queue(({ stack }) =>
      stack.relation
        .getCollection(this.name)
        .addRelation(name, { type: 'OneToOne', foreignCollection, ...options }),
    );
  }

  /** Adds a ManyToMany relation through `throughCollection`. */
  addManyToManyRelation(
    name: string,
    foreignCollection: string,
    throughCollection: string,
    options: {
      originKey: string;
      foreignKey: string;
      originKeyTarget?: string;
      foreignKeyTarget?: string;
    },
  ): this {
    return this.queue(({ stack }) =>
      stack.relation.getCollection(this.name).addRelation(name, {
        type: 'ManyToMany',
        foreignCollection,
        throughCollection,
        ...options,
      }),
    );
  }

  /** Adds related data computed from each record (shown by the UI as a relation). */
  addExternalRelation(name: string, definition: ExternalRelationDefinition): this {
    return this.queue(({ stack }) => {
      const dependencies =
        definition.dependencies ??
        getPrimaryKeys(stack.lateComputed.getCollection(this.name).schema);
      this.addField(name, {
        columnType: [definition.schema] as ColumnType,
        dependencies,
        getValues: (records, context) =>
          records.map((record) => definition.listRecords(record, context)),
      });
    });
  }

  /** Adds a segment: a condition tree or a function of the context returning one. */
  addSegment(name: string, definition: SegmentDefinition): this {
    return this.queue(({ stack }) =>
      stack.segment.getCollection(this.name).addSegment(name, definition),
    );
  }

  /**
   * Runs `handler` before or after an operation. Writes made inside actions skip these hooks
   * unless `includeActionWrites` is set (then the hook sits under the action layer).
   */
  addHook<P extends HookPosition, T extends HookType>(
    position: P,
    type: T,
    handler: HookHandler<P, T>,
    options: { includeActionWrites?: boolean } = {},
  ): this {
    return this.queue(({ stack }) =>
      (options.includeActionWrites ? stack.internalHook : stack.hook)
        .getCollection(this.name)
        .addHook(position, type, handler as HookHandler),
    );
  }

  /** Replaces the search: `handler` turns the search text into a condition tree. */
  replaceSearch(handler: SearchReplacer): this {
    return this.queue(({ stack }) => stack.search.getCollection(this.name).replaceSearch(handler));
  }

  /** Disables search (the UI hides the search bar). */
  disableSearch(): this {
    return this.queue(({ stack }) => stack.search.getCollection(this.name).disableSearch());
  }

  /** Makes a field sortable by sorting in memory. */
  emulateFieldSorting(name: string): this {
    return this.queue(({ stack }) =>
      stack.sortEmulate.getCollection(this.name).emulateFieldSorting(name),
    );
  }

  /** Sorting on `name` becomes sorting on `clauses` (inverted for descending). */
  replaceFieldSorting(name: string, clauses: SortClause[]): this {
    return this.queue(({ stack }) =>
      stack.sortEmulate.getCollection(this.name).replaceFieldSorting(name, clauses),
    );
  }

  /** Marks a field as not sortable. */
  disableFieldSorting(name: string): this {
    return this.queue(({ stack }) =>
      stack.sortEmulate.getCollection(this.name).disableFieldSorting(name),
    );
  }

  /** Emulates in memory every operator of the field's type that it does not support. */
  emulateFieldFiltering(name: string): this {
    return this.queue(({ stack }) => {
      const column = resolveColumnPath(stack.lateOperators.getCollection(this.name), name).schema;
      if (typeof column.columnType !== 'string') {
        throw new ValidationError(
          `emulateFieldFiltering only applies to primitive columns; '${this.name}.${name}' is ${JSON.stringify(column.columnType)}.`,
        );
      }
      for (const operator of allowedOperatorsForType(column)) {
        if (!column.filterOperators?.has(operator)) this.emulateFieldOperator(name, operator);
      }
    });
  }

  /** Emulates one operator on a field in memory. */
  emulateFieldOperator(name: string, operator: Operator): this {
    return this.queue((state) =>
      this.operatorsLayer(state, name).emulateFieldOperator(name, operator),
    );
  }

  /** Replaces one operator on a field by the condition tree `replacer` returns. */
  replaceFieldOperator(name: string, operator: Operator, replacer: OperatorReplacer): this {
    return this.queue((state) => {
      if (!replacer)
        throw new ValidationError(
          `replaceBy handler is required ('${this.name}.${name}' ${operator}).`,
        );
      this.operatorsLayer(state, name).replaceFieldOperator(name, operator, replacer);
    });
  }

  private operatorsLayer({ stack }: ApplyingState, name: string) {
    const early = stack.earlyOperators.getCollection(this.name);
    return name in early.childCollection.schema.fields
      ? early
      : stack.lateOperators.getCollection(this.name);
  }

  /** Adds a chart displayed on this collection's records. */
  addChart(name: string, definition: CollectionChartDefinition): this {
    return this.queue(({ stack }) =>
      stack.chart.getCollection(this.name).addChart(name, definition),
    );
  }

  /** Replaces the data source's create. */
  overrideCreate(handler: CreateOverrideHandler): this {
    return this.queue(({ stack }) =>
      stack.override.getCollection(this.name).addCreateOverride(handler),
    );
  }

  /** Replaces the data source's update. */
  overrideUpdate(handler: UpdateOverrideHandler): this {
    return this.queue(({ stack }) =>
      stack.override.getCollection(this.name).addUpdateOverride(handler),
    );
  }

  /** Replaces the data source's delete. */
  overrideDelete(handler: DeleteOverrideHandler): this {
    return this.queue(({ stack }) =>
      stack.override.getCollection(this.name).addDeleteOverride(handler),
    );
  }

  /** Disables counting in list pagination. */
  disableCount(): this {
    return this.queue(({ stack }) =>
      stack.schema.getCollection(this.name).overrideSchema({ countable: false }),
    );
  }
}
