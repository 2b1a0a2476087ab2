import { describeSharedSuite } from './shared-suite';

describeSharedSuite('postgres');
