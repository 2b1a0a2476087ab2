import { defineConfig, type Options } from 'tsup';

/**
 * `code` with every character above U+00FF written as its `\uXXXX` escape (the same text to
 * JavaScript in strings, regular expressions and comments). V8 keeps a script's source in memory
 * for the process's life, one byte per character only when every character fits in one: a single
 * `→` left in a doc comment would double the memory of the whole file.
 */
export function escapeWideCharacters(code: string): string {
  return code.replace(
    /[\u0100-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

type TsupPlugin = NonNullable<Options['plugins']>[number];

/** Writes the bundles as one-byte text ({@link escapeWideCharacters}); source maps are kept. */
const oneByteSource: TsupPlugin = {
  name: 'one-byte-source',
  renderChunk: (code, chunk) =>
    /\.[cm]?js$/.test(chunk.path) ? { code: escapeWideCharacters(code) } : undefined,
};

/**
 * The build of every publishable package: CommonJS and ES module bundles for Node 20 with their
 * declaration files and source maps, from the package's `tsconfig.build.json`, written as
 * one-byte text. A package's `tsup.config.ts` names its entries and, only where it differs,
 * what it changes.
 *
 * @example
 * // packages/<name>/tsup.config.ts
 * import { packageBuildConfig } from '../../tsup.config.base';
 * export default packageBuildConfig({ index: 'src/index.ts', cli: 'src/cli.ts' });
 */
export function packageBuildConfig(entry: Record<string, string>, overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ['cjs', 'esm'],
    dts: { resolve: false },
    tsconfig: 'tsconfig.build.json',
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    clean: true,
    splitting: false,
    ...overrides,
    plugins: [oneByteSource, ...(overrides.plugins ?? [])],
  });
}
