import { isCanopyError } from '@canopy/agent-core';
import { bindNamedParameters } from './bind-named-parameters';

describe('bindNamedParameters', () => {
  it('binds $name placeholders in order, repeating values used twice', () => {
    expect(
      bindNamedParameters('select * from t where a = $a and b > $b or a = $a', { a: 1, b: 'x' }),
    ).toEqual({ sql: 'select * from t where a = ? and b > ? or a = ?', bindings: [1, 'x', 1] });
  });

  it('leaves quoted text and identifiers alone and escapes question marks for knex', () => {
    const { sql, bindings } = bindNamedParameters(
      `select '$a?' as "col$a", data ? 'k' from t where x = $a`,
      { a: 2 },
    );
    expect(sql).toBe(`select '$a\\?' as "col$a", data \\? 'k' from t where x = ?`);
    expect(bindings).toEqual([2]);
  });

  it('refuses a placeholder without a value, naming it', () => {
    let error: unknown;
    try {
      bindNamedParameters('select $missing', { other: 1 });
    } catch (caught) {
      error = caught;
    }
    expect(isCanopyError(error, { family: 'validation' })).toBe(true);
    expect((error as Error).message).toContain('$missing');
  });
});
