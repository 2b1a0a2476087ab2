import { zoneOffsets } from './zone-offsets';

describe('zoneOffsets', () => {
  it('finds the daylight saving transitions of a zone to the minute', () => {
    const segments = zoneOffsets('Europe/Paris');
    const spring2024 = segments.find((segment) => segment.until === Date.UTC(2024, 2, 31, 1, 0));
    const autumn2024 = segments.find((segment) => segment.until === Date.UTC(2024, 9, 27, 1, 0));
    expect(spring2024?.offsetMinutes).toBe(60);
    expect(autumn2024?.offsetMinutes).toBe(120);
    expect(segments.at(-1)?.until).toBe(Infinity);
  });

  it('gives one segment to a zone without transitions', () => {
    expect(zoneOffsets('UTC')).toEqual([{ until: Infinity, offsetMinutes: 0 }]);
    expect(zoneOffsets('Asia/Kolkata').at(-1)?.offsetMinutes).toBe(330);
  });
});
