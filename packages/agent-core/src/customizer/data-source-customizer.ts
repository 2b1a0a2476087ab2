import { ValidationError, isCanopyError } from '../toolkit/errors/canopy-error';
import type { DataSource, DataSourceFactory } from '../toolkit/interfaces/data-source';
import type { Logger } from '../toolkit/interfaces/logger';
import type { DataSourceSchema } from '../toolkit/schema/collection-schema';
import { CollectionCustomizer } from './collection-customizer';
import { CollectionSelectionDataSource } from './composite/collection-selection-data-source';
import { CompositeDataSource } from './composite/composite-data-source';
import {
  type CollectionRenaming,
  RenameCollectionDataSource,
} from './composite/rename-collection-data-source';
import { DecoratorStack } from './decorator-stack';
import type { DataSourceChartDefinition } from './decorators/chart/chart-collection';
import type { Plugin } from './plugin';

/** Options of {@link DataSourceCustomizer.addDataSource} (spec §2.2). */
export interface DataSourceOptions {
  include?: string[];
  exclude?: string[];
  rename?: CollectionRenaming;
}

/** What a queued customization receives while customizations are applied. */
export interface ApplyingState {
  stack: DecoratorStack;
  composite: CompositeDataSource;
  logger: Logger;
  restartAgent: () => Promise<void>;
}

/** A queued customization. */
export type CustomizationTask = (state: ApplyingState) => void | Promise<void>;

const silentLogger: Logger = () => {};

const MISSING_SCHEMA_ELEMENT_CODES = [
  'MISSING_COLLECTION',
  'MISSING_FIELD',
  'MISSING_COLUMN',
  'MISSING_RELATION',
];

/** Options of a {@link DataSourceCustomizer}. */
export interface DataSourceCustomizerOptions {
  /**
   * Log customizations that name a missing collection, field, column or relation as warnings and
   * skip them, instead of failing (useful while a database schema is being migrated).
   */
  ignoreMissingSchemaElementErrors?: boolean;
}

/**
 * The agent-level data API (spec §4.1, data-semantics §3.1, §3.4). Every call only queues a
 * task; {@link DataSourceCustomizer.getDataSource} builds a fresh decorator stack and applies
 * the queue in call order (tasks queued by a task run right after it), so it can be called
 * again on restart.
 *
 * @example
 * const customizer = new DataSourceCustomizer()
 *   .addDataSource(createSqlDataSource(url), { exclude: ['migrations'] })
 *   .customizeCollection('users', (users) =>
 *     users.addField('fullName', { columnType: 'String', dependencies: ['firstName', 'lastName'],
 *       getValues: (records) => records.map((r) => `${r.firstName} ${r.lastName}`) }));
 * const dataSource = await customizer.getDataSource(logger);
 */
export class DataSourceCustomizer {
  private readonly tasks: CustomizationTask[] = [];
  private nested: CustomizationTask[] | null = null;
  private applying: ApplyingState | null = null;

  constructor(private readonly options: DataSourceCustomizerOptions = {}) {}

  /** Adds a data source; `include`/`exclude` select collections, `rename` renames them. */
  addDataSource(factory: DataSourceFactory, options: DataSourceOptions = {}): this {
    if (typeof factory !== 'function') {
      throw new ValidationError(
        `addDataSource needs a data source factory (logger, restartAgent) => Promise<DataSource>, got ${typeof factory}.`,
      );
    }
    return this.queue(async ({ composite, logger, restartAgent }) => {
      let dataSource: DataSource = await factory(logger, restartAgent);
      if (options.include || options.exclude)
        dataSource = new CollectionSelectionDataSource(dataSource, options);
      if (options.rename) dataSource = new RenameCollectionDataSource(dataSource, options.rename);
      composite.addDataSource(dataSource);
    });
  }

  /** Calls `handler` now with the collection's customizer; what it does is queued. */
  customizeCollection(name: string, handler: (collection: CollectionCustomizer) => void): this {
    handler(this.getCollection(name));
    return this;
  }

  /** The customizer of a collection (by its name after data-source renaming). */
  getCollection(name: string): CollectionCustomizer {
    return new CollectionCustomizer(this, name);
  }

  /** A collection customizer, or `undefined` when no such collection exists (while applying). */
  findCollection(name: string): CollectionCustomizer | undefined {
    const names = this.currentState('findCollection').stack.validation.collections.map(
      (c) => c.name,
    );
    return names.includes(name) ? this.getCollection(name) : undefined;
  }

  /** Names of every collection (while applying, e.g. in plugins). */
  get collectionNames(): string[] {
    return this.currentState('collectionNames').stack.publication.collections.map((c) => c.name);
  }

  /** The data-source schema (while applying). */
  get schema(): DataSourceSchema {
    return this.currentState('schema').stack.dataSource.schema;
  }

  /** Adds a data-source-level chart. */
  addChart(name: string, definition: DataSourceChartDefinition): this {
    return this.queue(({ stack }) => stack.chart.addChart(name, definition));
  }

  /** Hides collections from the exported schema; they stay usable inside the agent. */
  removeCollection(...names: string[]): this {
    return this.queue(({ stack }) => stack.publication.hideCollections(names));
  }

  /** Loads a plugin at agent level. */
  use<Options>(plugin: Plugin<Options>, options?: Options): this {
    return this.queue(({ logger }) => plugin(this, null, options, logger));
  }

  /** Queues a task (used by collection customizers and plugins). */
  queue(task: CustomizationTask): this {
    (this.nested ?? this.tasks).push(task);
    return this;
  }

  /** The state while customizations are being applied, or an error naming `what` was used. */
  currentState(what: string): ApplyingState {
    if (!this.applying) {
      throw new ValidationError(
        `'${what}' is only available while customizations are applied (e.g. inside plugins).`,
      );
    }
    return this.applying;
  }

  /**
   * Builds the customized data source from scratch: runs the data source factories, builds the
   * decorator stack and applies every queued customization in call order. Call it at start and
   * again on restart; on failure, the data sources already built are closed.
   */
  async getDataSource(
    logger: Logger = silentLogger,
    restartAgent: () => Promise<void> = async () => {},
  ): Promise<DataSource> {
    const composite = new CompositeDataSource();
    const stack = new DecoratorStack(composite);
    const previous = this.applying;
    this.applying = { stack, composite, logger, restartAgent };
    try {
      await this.run(this.tasks);
      for (const collection of stack.segment.collections) collection.validateStaticSegments();
      return stack.dataSource;
    } catch (error) {
      await composite.close().catch(() => undefined);
      throw error;
    } finally {
      this.applying = previous;
    }
  }

  private async run(tasks: CustomizationTask[]): Promise<void> {
    for (const task of [...tasks]) {
      const nested: CustomizationTask[] = [];
      const outer = this.nested;
      this.nested = nested;
      try {
        await task(this.applying as ApplyingState);
      } catch (error) {
        const code = isCanopyError(error) ? error.code : null;
        if (
          !this.options.ignoreMissingSchemaElementErrors ||
          !code ||
          !MISSING_SCHEMA_ELEMENT_CODES.includes(code)
        ) {
          throw error;
        }
        this.applying?.logger(
          'Warn',
          `A customization was skipped: ${(error as Error).message}`,
          error,
        );
      } finally {
        this.nested = outer;
      }
      await this.run(nested);
    }
  }
}
