import { describeSharedSuite } from './shared-suite';

describeSharedSuite('embedded-postgres');
