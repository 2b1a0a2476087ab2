import { decodeIdCursor, decodeTimeCursor, encodeIdCursor, encodeTimeCursor } from './cursor';

it('round-trips time and id cursors', () => {
  const cursor = { createdAt: new Date('2026-01-01T00:00:00.123Z'), id: '9007199254740993' };
  expect(decodeTimeCursor(encodeTimeCursor(cursor))).toEqual(cursor);
  expect(decodeIdCursor(encodeIdCursor(42))).toBe(42);
});

it.each([
  '',
  'abc',
  Buffer.from('[1,"x"]').toString('base64url'),
  Buffer.from('{"a":1}').toString('base64url'),
])('rejects %j with invalid_cursor', (value) => {
  expect(() => decodeTimeCursor(value)).toThrow(
    expect.objectContaining({ code: 'invalid_cursor', status: 400 }),
  );
  expect(() => decodeIdCursor(value)).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
});
