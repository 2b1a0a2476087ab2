import { packageBuildConfig } from '../../tsup.config.base';

export default packageBuildConfig({ index: 'src/index.ts' });
