import { defineConfig, type Options } from 'tsup';

/**
 * The build of every publishable package: CommonJS and ES module bundles for Node 20 with their
 * declaration files and source maps, from the package's `tsconfig.build.json`. A package's
 * `tsup.config.ts` names its entries and, only where it differs, what it changes.
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
  });
}
