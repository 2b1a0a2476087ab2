import { describeSharedSuite } from './shared-suite';

describeSharedSuite('mariadb');
