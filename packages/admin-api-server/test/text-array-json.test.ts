import { useTestDatabase } from '@canopy/test-databases';
import fc from 'fast-check';
import pg from 'pg';
import { textArrayToJson } from '../src/store/text-array-json';

// textArrayToJson against the array path (pg's own text[] parser, then JSON.stringify), on the
// text forms PostgreSQL itself writes for many arrays.
const db = useTestDatabase('postgres');
const textArrayParser = (
  pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => unknown
)(1009, 'text');
const arrayPath = (text: string) => JSON.stringify(textArrayParser(text));

// Any text PostgreSQL holds (no NUL), including quotes, backslashes, braces, commas, white space,
// control characters, non-BMP characters, "NULL", and plain ids.
const element = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc
    .string({ unit: 'binary', maxLength: 6 })
    // eslint-disable-next-line no-control-regex -- NUL is the one character PostgreSQL text cannot hold
    .map((text) => text.replace(/[\u0000\ud800-\udfff]/g, '')),
  fc.constantFrom('NULL', 'null', 'Null', '', ' ', 'a b', '{x}', 'a,b', '"', '\\', '\u0001'),
  fc.integer({ min: 0, max: 1_000_000 }).map(String),
  fc.stringMatching(/^[a-z0-9_.:-]{1,12}$/),
);
const array = fc.array(fc.option(element, { nil: null, freq: 10 }), { maxLength: 4 });

async function textForms(arrays: (string | null)[][]): Promise<string[]> {
  // Each array travels as its JSON text and is rebuilt as text[] by PostgreSQL, which then
  // writes its own text form of it.
  const result = await db().knex.raw<{ rows: { text: string }[] }>(
    `SELECT (SELECT coalesce(array_agg(e ORDER BY n), '{}')::text
               FROM jsonb_array_elements_text(a) WITH ORDINALITY AS x(e, n)) AS text
       FROM unnest(?::jsonb[]) WITH ORDINALITY AS t(a, i) ORDER BY i`,
    [arrays.map((value) => JSON.stringify(value))],
  );
  return result.rows.map((row) => row.text);
}

it("writes the array path's JSON for PostgreSQL's text forms of many text[] values", async () => {
  const arrays = fc.sample(array, { numRuns: 3_000, seed: 23 });
  arrays.push([], ['1'], ['1', '2', '3'], [null], ['NULL'], ['a', null, 'b'], ['x y'], ['']);
  const texts = await textForms(arrays);
  expect(texts).toHaveLength(arrays.length);
  texts.forEach((text, index) => {
    expect(textArrayToJson(text)).toBe(arrayPath(text));
    expect(textArrayToJson(text)).toBe(JSON.stringify(arrays[index]));
  });
  // Both the rewritten forms and the parsed ones were met.
  expect(texts).toContain('{1,2,3}');
  expect(texts).toContain('{NULL}');
  expect(texts).toContain('{"NULL"}');
}, 60_000);

it('writes the array path for forms it does not rewrite', () => {
  for (const text of ['{{a,b},{c,d}}', '[0:1]={a,b}', '{a,NULL}', '{"a,b",c}', '{"\\\\"}']) {
    expect(textArrayToJson(text)).toBe(arrayPath(text));
  }
});
