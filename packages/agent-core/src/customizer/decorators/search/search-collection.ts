import type { Caller } from '../../../toolkit/caller';
import { ValidationError } from '../../../toolkit/errors/canopy-error';
import type {
  ConditionTree,
  PlainConditionTree,
} from '../../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../../toolkit/query/condition-tree/condition-tree-factory';
import { toConditionTree } from '../../../toolkit/query/condition-tree/to-condition-tree';
import type { Filter } from '../../../toolkit/query/filter';
import type { CollectionSchema } from '../../../toolkit/schema/collection-schema';
import type { ColumnSchema } from '../../../toolkit/schema/field-schema';
import { CollectionCustomizationContext } from '../../context/customization-context';
import { CollectionDecorator } from '../collection-decorator';
import { buildSearchTree } from '../../../toolkit/search/search-tree';

/** Options of the default search tree builder. */
export interface SearchOptions {
  extended?: boolean;
  onlyFields?: string[];
  includeFields?: string[];
  excludeFields?: string[];
}

/** Context of a `replaceSearch` handler. */
export class SearchContext extends CollectionCustomizationContext {
  constructor(
    collection: SearchCollectionDecorator,
    caller: Caller,
    private readonly build: (text: string, options: SearchOptions) => ConditionTree | null,
  ) {
    super(collection, caller);
  }

  /** The default search tree, optionally on other fields. */
  generateSearchFilter(text: string, options: SearchOptions = {}): ConditionTree | null {
    return this.build(text, options);
  }
}

/** Builds the condition tree of a search. */
export type SearchReplacer = (
  search: string,
  extended: boolean,
  context: SearchContext,
) => ConditionTree | PlainConditionTree | null | Promise<ConditionTree | PlainConditionTree | null>;

/**
 * Layer 13 — search. A non-blank search is turned into a condition tree (by `replaceSearch` or
 * the default builder over the collection's columns, plus to-one relations when extended) unless
 * the collection below searches natively. Every collection is therefore searchable (the schema
 * says so) unless `disableSearch` was called: then the schema says it is not, and a search is a
 * 400 `Collection is not searchable` (agent-http-protocol §6.6).
 */
export class SearchCollectionDecorator extends CollectionDecorator {
  private replacer: SearchReplacer | null = null;
  private disabled = false;

  replaceSearch(replacer: SearchReplacer): void {
    this.replacer = replacer;
    this.markSchemaAsDirty();
  }

  disableSearch(): void {
    this.disabled = true;
    this.markSchemaAsDirty();
  }

  protected override refineSchema(childSchema: CollectionSchema): CollectionSchema {
    return {
      ...childSchema,
      searchable: !this.disabled,
    };
  }

  /** Only searches are refined here. */
  protected override keepsFilter(filter: Filter): boolean {
    return !filter.search;
  }

  protected override async refineFilter<F extends Filter | undefined>(
    caller: Caller,
    filter: F,
  ): Promise<F> {
    if (!filter?.search) return filter;
    const search = filter.search.trim();
    if (search === '') return filter.override({ search: null }) as F;
    if (this.disabled) throw new ValidationError('Collection is not searchable');
    if (!this.replacer && this.childCollection.schema.searchable) return filter;

    const build = (text: string, options: SearchOptions) => this.buildTree(caller, text, options);
    const tree = this.replacer
      ? toConditionTree(
          await this.replacer(
            search,
            filter.searchExtended,
            new SearchContext(this, caller, build),
          ),
        )
      : build(search, { extended: filter.searchExtended });
    return filter.override({
      search: null,
      searchExtended: false,
      conditionTree: ConditionTreeFactory.intersect(filter.conditionTree, tree),
    }) as F;
  }

  private searchFields(options: SearchOptions): [string, ColumnSchema][] {
    const columns = (schema: CollectionSchema, prefix = '') =>
      Object.entries(schema.fields)
        .filter((entry): entry is [string, ColumnSchema] => entry[1].type === 'Column')
        .map(([name, column]): [string, ColumnSchema] => [`${prefix}${name}`, column]);
    const own = columns(this.schema);
    const all = [...own];
    for (const [name, field] of Object.entries(this.schema.fields)) {
      if (field.type === 'ManyToOne' || field.type === 'OneToOne') {
        all.push(
          ...columns(this.dataSource.getCollection(field.foreignCollection).schema, `${name}:`),
        );
      }
    }
    const byName = (names: string[]) => all.filter(([name]) => names.includes(name));
    let fields = options.onlyFields ? byName(options.onlyFields) : options.extended ? all : own;
    if (options.includeFields) {
      fields = [...fields, ...byName(options.includeFields).filter((f) => !fields.includes(f))];
    }
    if (options.excludeFields)
      fields = fields.filter(([name]) => !options.excludeFields?.includes(name));
    return fields;
  }

  private buildTree(caller: Caller, text: string, options: SearchOptions): ConditionTree | null {
    return buildSearchTree(
      text,
      this.searchFields(options),
      this.searchFields({ extended: true }),
      caller.timezone,
    );
  }
}
