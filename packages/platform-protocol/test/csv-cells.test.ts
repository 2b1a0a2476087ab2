import { neutralizeCsvCell } from '../src';

describe('neutralizeCsvCell', () => {
  it.each(['=', '+', '-', '@', '\t', '\r'])(
    'quotes and prefixes a cell starting with %j',
    (start) => {
      expect(neutralizeCsvCell(`${start}1+1`)).toEqual({ value: `'${start}1+1`, quoted: true });
    },
  );

  it('leaves other cells unchanged', () => {
    expect(neutralizeCsvCell('plain = text')).toEqual({ value: 'plain = text' });
    expect(neutralizeCsvCell('')).toEqual({ value: '' });
    expect(neutralizeCsvCell(' =1')).toEqual({ value: ' =1' });
  });
});
