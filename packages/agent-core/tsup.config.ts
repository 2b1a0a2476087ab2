import { packageBuildConfig } from '../../tsup.config.base';

// Two entries, `@canopy/agent-core` and `@canopy/agent-core/toolkit`, share their code through
// chunks (splitting, in both formats): one class per concept, so a data source built on the
// toolkit entry and an agent built on the main one see the same `ConditionTree`, `CanopyError`, …
export default packageBuildConfig(
  { index: 'src/index.ts', toolkit: 'src/toolkit/index.ts' },
  { splitting: true },
);
