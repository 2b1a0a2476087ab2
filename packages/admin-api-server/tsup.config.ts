import { packageBuildConfig } from '../../tsup.config.base';

// `internals` shares its modules with `index` (one copy of each class and registry: `splitting`),
// so that a user of both entries gets one ApiError and one set of chain keys.
export default packageBuildConfig(
  { index: 'src/index.ts', internals: 'src/internals.ts', cli: 'src/cli.ts' },
  { splitting: true },
);
