import { ValidationError } from '../../toolkit/errors/canopy-error';
import { parseTimezone } from './timezone';

describe('parseTimezone', () => {
  it.each(['Europe/Paris', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata'])(
    'accepts the canonical zone %s',
    (zone) => {
      expect(parseTimezone(zone)).toBe(zone);
    },
  );

  it.each(['UTC', 'Etc/GMT+2', 'US/Pacific', 'Asia/Calcutta'])(
    'accepts %s, a zone name that is not canonical',
    (zone) => {
      expect(parseTimezone(zone)).toBe(zone);
    },
  );

  it.each(['Mars/Olympus_Mons', 'Europe/Pariss', 'not a zone', '../../etc/passwd'])(
    'refuses %s with a ValidationError that names it',
    (zone) => {
      expect(() => parseTimezone(zone)).toThrow(ValidationError);
      expect(() => parseTimezone(zone)).toThrow(`Invalid timezone: "${zone}"`);
    },
  );

  it('refuses a missing or empty timezone', () => {
    expect(() => parseTimezone(undefined)).toThrow('Missing timezone');
    expect(() => parseTimezone('')).toThrow('Missing timezone');
  });

  it('answers a zone it accepted before the same way', () => {
    expect(parseTimezone('Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(parseTimezone('Europe/Lisbon')).toBe('Europe/Lisbon');
    expect(() => parseTimezone('Europe/Lisbonn')).toThrow(ValidationError);
  });
});
