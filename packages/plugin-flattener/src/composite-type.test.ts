import type { CompositeColumnType } from '@canopy/agent-core';
import { depthOf, findTypeProblem, pathsToLevel, typeAtPath } from './composite-type';

const address: CompositeColumnType = {
  city: 'String',
  kind: { type: 'Enum', enumValues: ['home', 'work'] },
  geo: { lat: 'Number', point: { x: 'Number' } },
  tags: ['String'],
};

describe('composite types', () => {
  it('enumerates paths down to a level, enums and arrays being leaves', () => {
    expect(pathsToLevel(address, 1)).toEqual([['city'], ['kind'], ['geo'], ['tags']]);
    expect(pathsToLevel(address, 2)).toEqual([
      ['city'],
      ['kind'],
      ['geo', 'lat'],
      ['geo', 'point'],
      ['tags'],
    ]);
    expect(pathsToLevel(address, 3)).toContainEqual(['geo', 'point', 'x']);
  });

  it('measures depth and finds the type at a path', () => {
    expect(depthOf(address)).toBe(3);
    expect(depthOf({ a: 'String' })).toBe(1);
    expect(typeAtPath(address, ['geo', 'lat'])).toBe('Number');
    expect(typeAtPath(address, ['kind', 'type'])).toBeUndefined();
    expect(typeAtPath(address, ['toString'])).toBeUndefined();
  });

  it('reports the first problem of a user-given type with its path', () => {
    expect(findTypeProblem(address)).toBeNull();
    expect(findTypeProblem({ a: { b: 'Text' } })).toBe("'a.b' has unknown type 'Text'");
    expect(findTypeProblem({ a: ['String', 'Number'] })).toBe(
      "'a' must be an array of exactly one type, like ['String']",
    );
    expect(findTypeProblem({ a: 3 })).toBe(
      "'a' must be a type name, an array of one type or an object, got 3",
    );
    expect(findTypeProblem({ a: { type: 'Enum', enumValues: [1] } })).toBe(
      "'a' must list string enumValues",
    );
  });
});
