import { DateTime } from 'luxon';
import { isValidZone, periodOf } from './date-bounds';

const now = DateTime.fromISO('2024-03-15T10:00:00Z');
const iso = (operator: string, days?: number) => {
  const period = periodOf(operator, 'Europe/Paris', now, days);
  return period && [period.start.toUTC().toISO(), period.end.toUTC().toISO()];
};

describe('periodOf (caller in Europe/Paris, now 2024-03-15T10:00Z, a Friday)', () => {
  it.each([
    ['Today', undefined, ['2024-03-14T23:00:00.000Z', '2024-03-15T23:00:00.000Z']],
    ['Yesterday', undefined, ['2024-03-13T23:00:00.000Z', '2024-03-14T23:00:00.000Z']],
    ['PreviousWeek', undefined, ['2024-03-03T23:00:00.000Z', '2024-03-10T23:00:00.000Z']],
    ['PreviousWeekToDate', undefined, ['2024-03-10T23:00:00.000Z', '2024-03-15T10:00:00.000Z']],
    ['PreviousMonth', undefined, ['2024-01-31T23:00:00.000Z', '2024-02-29T23:00:00.000Z']],
    ['PreviousQuarter', undefined, ['2023-09-30T22:00:00.000Z', '2023-12-31T23:00:00.000Z']],
    ['PreviousYearToDate', undefined, ['2023-12-31T23:00:00.000Z', '2024-03-15T10:00:00.000Z']],
    ['PreviousXDays', 3, ['2024-03-11T23:00:00.000Z', '2024-03-14T23:00:00.000Z']],
    ['PreviousXDaysToDate', 3, ['2024-03-11T23:00:00.000Z', '2024-03-15T10:00:00.000Z']],
  ])('%s', (operator, days, expected) => {
    expect(iso(operator, days)).toEqual(expected);
  });

  it('is undefined for operators that are not periods, and checks zones', () => {
    expect(periodOf('Equal', 'UTC', now)).toBeUndefined();
    expect(isValidZone('Europe/Paris')).toBe(true);
    expect(isValidZone('Mars/Olympus')).toBe(false);
  });
});
