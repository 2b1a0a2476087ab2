import type { SandboxRole, SandboxUser } from './types';

/** The user the sandbox knows by default and the test client signs its token for. */
export const TEST_USER: Readonly<SandboxUser> = Object.freeze({
  id: 1,
  email: 'test.user@canopy.test',
  firstName: 'Test',
  lastName: 'User',
  permissionLevel: 'admin',
  roleId: 1,
  tags: {},
});

/** The role of {@link TEST_USER}: every right on every collection unless a test narrows it. */
export const TEST_ROLE: Readonly<SandboxRole> = Object.freeze({ id: 1, name: 'Admin' });

/** Team and rendering of the test user's session. */
export const TEST_TEAM = Object.freeze({ id: 1, name: 'admin' });
export const TEST_RENDERING_ID = 1;
