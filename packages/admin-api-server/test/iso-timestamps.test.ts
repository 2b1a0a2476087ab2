import { useTestDatabase } from '@canopy/test-databases';
import fc from 'fast-check';
import pg from 'pg';
import { timestamptzToIso } from '../src/store/iso-timestamps';

// timestamptzToIso against the Date path (pg's own timestamptz parser, then toISOString), on
// the text forms PostgreSQL itself writes for many instants under several session time zones.
const db = useTestDatabase('postgres');
const datePath = (text: string) =>
  (pg.types.getTypeParser(1184, 'text')(text) as Date).toISOString();

const instant = fc.oneof(
  // Years 0001–9999 AD, at millisecond precision (the columns' precision).
  fc.date({
    min: new Date('0001-01-01T00:00:00.000Z'),
    max: new Date('9999-12-31T23:59:59.999Z'),
    noInvalidDate: true,
  }),
  // Years before 1000, and whole seconds (no fraction in the text form).
  fc
    .date({
      min: new Date('0001-01-01T00:00:00.000Z'),
      max: new Date('0999-12-31T23:59:59.999Z'),
      noInvalidDate: true,
    })
    .map((date) => new Date(Math.floor(date.getTime() / 1000) * 1000)),
  // Fractions with trailing zeros PostgreSQL drops (.1, .12).
  fc
    .date({ min: new Date('1970-01-01Z'), max: new Date('2100-01-01Z'), noInvalidDate: true })
    .map((date) => new Date(Math.floor(date.getTime() / 100) * 100)),
);

async function textForms(zone: string, instants: Date[]): Promise<string[]> {
  return db().knex.transaction(async (trx) => {
    await trx.raw(`SET LOCAL TIME ZONE '${zone}'`);
    const result = await trx.raw<{ rows: { text: string }[] }>(
      'SELECT (unnest(?::text[])::timestamptz(3))::text AS text',
      [instants.map((date) => date.toISOString())],
    );
    return result.rows.map((row) => row.text);
  });
}

it.each(['UTC', 'Asia/Kolkata', 'America/Los_Angeles', 'Europe/Amsterdam'])(
  'writes the ISO string of the Date path for PostgreSQL text forms in time zone %s',
  async (zone) => {
    const instants = fc.sample(instant, { numRuns: 2_000, seed: 23 });
    instants.push(
      new Date('0001-01-01T00:00:00.000Z'),
      new Date('0099-06-15T12:30:45.120Z'),
      new Date('0999-12-31T23:59:59.999Z'),
      new Date('1000-01-01T00:00:00.000Z'),
      new Date('2026-03-01T10:00:00.100Z'),
      new Date('9999-12-31T23:59:59.999Z'),
    );
    const texts = await textForms(zone, instants);
    expect(texts).toHaveLength(instants.length);
    texts.forEach((text, index) => {
      expect(timestamptzToIso(text)).toBe(datePath(text));
      expect(timestamptzToIso(text)).toBe(instants[index]!.toISOString());
    });
    if (zone === 'UTC') {
      expect(texts).toContain('2026-03-01 10:00:00.1+00');
      expect(texts).toContain('0001-01-01 00:00:00+00');
    }
  },
  60_000,
);

it('writes the Date path for forms it does not rewrite (BC, five-digit years, microseconds)', () => {
  for (const text of [
    '0044-03-15 12:00:00+00 BC',
    '10000-01-01 00:00:00+00',
    '2026-03-01 10:00:00.123456+00',
    '2026-03-01 10:00:00.5+05:30',
    '1850-01-01 00:00:00+00:19:32',
  ]) {
    expect(timestamptzToIso(text)).toBe(datePath(text));
  }
});
