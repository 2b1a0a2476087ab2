import { ValidationError } from '@canopy/agent-core/toolkit';

const TOKENS =
  /('(?:[^']|'')*')|("(?:[^"]|"")*")|(`(?:[^`]|``)*`)|\$([A-Za-z_][A-Za-z0-9_]*)|(\?)/g;

/**
 * Rewrites `$name` placeholders of a native query into knex `?` bindings, in order, leaving
 * quoted strings, quoted identifiers and PostgreSQL `$1`/`$$` untouched. Question marks of the
 * query itself are escaped so knex does not read them as bindings.
 *
 * @example
 * bindNamedParameters('select * from orders where customer_id = $customer_id', { customer_id: 4 });
 * // { sql: 'select * from orders where customer_id = ?', bindings: [4] }
 */
export function bindNamedParameters(
  query: string,
  variables: Record<string, unknown> = {},
): { sql: string; bindings: unknown[] } {
  const bindings: unknown[] = [];
  const sql = query.replace(
    TOKENS,
    (match, single, double, backtick, name: string | undefined, question) => {
      if (single !== undefined || double !== undefined || backtick !== undefined) {
        return match.replace(/\?/g, '\\?');
      }
      if (question !== undefined) return '\\?';
      const key = name as string;
      if (!Object.prototype.hasOwnProperty.call(variables, key)) {
        throw new ValidationError(
          `The native query uses $${key} but no value was given for it. ` +
            `Given variables: [${Object.keys(variables).join(', ')}].`,
        );
      }
      bindings.push(variables[key]);
      return '?';
    },
  );
  return { sql, bindings };
}
