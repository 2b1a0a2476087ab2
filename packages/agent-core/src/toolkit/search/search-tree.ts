import type { ConditionTree, PlainConditionTree } from '../query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../query/condition-tree/condition-tree-factory';
import { toConditionTree } from '../query/condition-tree/to-condition-tree';
import type { ColumnSchema } from '../schema/field-schema';
import { searchCondition } from './search-conditions';
import { parseSearch } from './search-query';

/** A searchable field: its path (`name` or `relation:name`) and its column. */
export type SearchField = readonly [path: string, column: ColumnSchema];

const normalize = (name: string) => name.toLowerCase().replace(/[-_]/g, '').replace(/\./g, ':');

/**
 * The condition tree of a search in the language of data-semantics §3.9 — the one search
 * implementation, used by the customizer's search layer and by data sources searched directly:
 * groups separated by `OR` are united, the tokens of a group intersected; a token matches when
 * one of `fields` matches it (a `field:value` token only the fields of `allFields` with that
 * name, when there are some); `-token` excludes. `null` for an empty search.
 */
export function buildSearchTree(
  text: string,
  fields: readonly SearchField[],
  allFields: readonly SearchField[],
  timezone: string,
): ConditionTree | null {
  const groups = parseSearch(text).map((tokens) =>
    tokens.map((token) => {
      let targets = fields;
      if (token.field) {
        const wanted = normalize(token.field);
        const matching = allFields.filter(([name]) => normalize(name) === wanted);
        if (matching.length) targets = matching;
      }
      const value = token.field && targets === fields ? `${token.field}:${token.text}` : token.text;
      const conditions = targets
        .map(([name, column]) =>
          searchCondition(name, column, value, token.negated, token.quoted, timezone),
        )
        .filter((condition): condition is PlainConditionTree => condition !== null);
      if (token.negated)
        return conditions.length ? toConditionTree({ aggregator: 'And', conditions }) : null;
      return conditions.length
        ? toConditionTree({ aggregator: 'Or', conditions })
        : ConditionTreeFactory.MatchNone;
    }),
  );
  return (
    ConditionTreeFactory.union(groups.map((group) => ConditionTreeFactory.intersect(group))) ?? null
  );
}
