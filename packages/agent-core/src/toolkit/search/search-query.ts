/** A parsed search: an OR of AND-groups of tokens. */
export interface SearchToken {
  text: string;
  negated: boolean;
  field: string | null;
  quoted: boolean;
}

const TOKEN = /(-?)(?:([\w.@-]+):)?(?:"([^"]*)"|'([^']*)'|(\S+))/g;

/**
 * Parses the search language of data-semantics §3.9: tokens separated by spaces are AND-ed,
 * `OR` (upper case) separates alternatives and binds looser than AND, `"quoted text"` is one
 * token, a leading `-` negates, `field:value` restricts a token to matching fields. Parentheses
 * are not supported: they are searched as text.
 *
 * @example
 * parseSearch('tea -green OR title:"earl grey"');
 * // [[tea], [-green]] → [[{text:'tea'}, {text:'green', negated:true}], [{text:'earl grey', field:'title'}]]
 */
export function parseSearch(search: string): SearchToken[][] {
  const groups: SearchToken[][] = [[]];
  for (const match of search.matchAll(TOKEN)) {
    const [, minus, field, double, single, bare] = match;
    if (!field && !minus && bare === 'OR') {
      groups.push([]);
      continue;
    }
    if (!field && !minus && bare === 'AND') continue;
    const quoted = double !== undefined || single !== undefined;
    const text = double ?? single ?? bare ?? '';
    (groups[groups.length - 1] as SearchToken[]).push({
      text,
      negated: minus === '-',
      field: field ?? null,
      quoted,
    });
  }
  return groups.filter((group) => group.length > 0);
}
