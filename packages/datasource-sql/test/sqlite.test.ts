import { describeSharedSuite } from './shared-suite';

describeSharedSuite('sqlite');
