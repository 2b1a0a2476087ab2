import { buildShop } from '../test/shop';
import { flattenColumn } from './flatten-column/flatten-column';
import { flattenJsonColumn } from './flatten-json-column/flatten-json-column';
import { flattenRelation } from './flatten-relation/flatten-relation';
import { isFlattenerError } from './flattener-error';

describe('the plugins at data-source level', () => {
  it.each([
    ['flattenColumn', flattenColumn],
    ['flattenJsonColumn', flattenJsonColumn],
    ['flattenRelation', flattenRelation],
  ])('%s refuses to run outside a collection', async (name, plugin) => {
    const failure = buildShop((customizer) => customizer.use(plugin as never, {}));
    await expect(failure).rejects.toThrow(
      `This plugin can only be called when customizing collections: use ${name} with collection.use(${name}, options)`,
    );
    await failure.catch((error: unknown) =>
      expect(isFlattenerError(error, 'FLATTENER_NOT_ON_COLLECTION')).toBe(true),
    );
  });
});
