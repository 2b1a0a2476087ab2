import type { Collection } from '../../toolkit/interfaces/collection';
import { Sort } from '../../toolkit/query/sort';
import { getPrimaryKeys } from '../../toolkit/schema/schema-utils';

/** What serialization needs to know about a collection, derived once from its schema. */
export interface CollectionPlan {
  readonly collection: Collection;
  readonly primaryKeys: readonly string[];
  /**
   * The order of a list read without a sort: every sortable primary-key column ascending, so
   * pages are stable whatever the storage order (`null` when no key column is sortable).
   */
  readonly defaultSort: Sort | null;
  readonly columns: ReadonlySet<string>;
  /** To-one relations: name → target collection. */
  readonly toOne: ReadonlyMap<string, Collection>;
  /**
   * To-many relations (rendered as links): name, and the end of its link after the record's id
   * (`/relationships/<name>`, encoded).
   */
  readonly toMany: readonly { readonly name: string; readonly linkSuffix: string }[];
  /** `/forest/<collection>/` with the name encoded, the start of every relationship link. */
  readonly linkPrefix: string;
}

const PLANS = new WeakMap<Collection, CollectionPlan>();

/** The serialization plan of a collection (cached per collection object). */
export function getCollectionPlan(collection: Collection): CollectionPlan {
  let plan = PLANS.get(collection);
  if (plan) return plan;
  const columns = new Set<string>();
  const toOne = new Map<string, Collection>();
  const toMany: { name: string; linkSuffix: string }[] = [];
  for (const [name, field] of Object.entries(collection.schema.fields)) {
    if (field.type === 'Column') columns.add(name);
    else if (field.type === 'ManyToOne' || field.type === 'OneToOne') {
      toOne.set(name, collection.dataSource.getCollection(field.foreignCollection));
    } else toMany.push({ name, linkSuffix: `/relationships/${encodeURIComponent(name)}` });
  }
  const primaryKeys = getPrimaryKeys(collection.schema);
  const sortableKeys = primaryKeys.filter((name) => {
    const field = collection.schema.fields[name];
    return field?.type === 'Column' && field.isSortable === true;
  });
  plan = {
    collection,
    primaryKeys,
    defaultSort:
      sortableKeys.length > 0
        ? new Sort(...sortableKeys.map((field) => ({ field, ascending: true })))
        : null,
    columns,
    toOne,
    toMany,
    linkPrefix: `/forest/${encodeURIComponent(collection.name)}/`,
  };
  PLANS.set(collection, plan);
  return plan;
}
