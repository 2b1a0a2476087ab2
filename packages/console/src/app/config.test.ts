import { describe, expect, it } from 'vitest';
import { actionAllowed, allowed, workspacesOf, type RoleRights } from './config';

const support: RoleRights = {
  collections: { orders: { deleteEnabled: false, exportEnabled: false } },
  actions: { orders: { Refund: { approvalRequired: true, triggerEnabled: false } } },
};

describe('allowed', () => {
  it('grants what the role does not mention and refuses what it turns off', () => {
    expect(allowed(support, false, 'orders', 'editEnabled')).toBe(true);
    expect(allowed(support, false, 'orders', 'deleteEnabled')).toBe(false);
    expect(allowed(support, false, 'customers', 'deleteEnabled')).toBe(true);
  });

  it('grants everything in development, nothing without a role, and drops refused rights', () => {
    expect(allowed(support, true, 'orders', 'deleteEnabled')).toBe(true);
    expect(allowed(null, false, 'orders', 'browseEnabled')).toBe(false);
    expect(allowed(support, true, 'orders', 'editEnabled', new Set(['orders:editEnabled']))).toBe(
      false,
    );
  });
});

describe('actionAllowed', () => {
  it('reads action rights, with approvalRequired off unless the role turns it on', () => {
    expect(actionAllowed(support, false, 'orders', 'Refund', 'triggerEnabled')).toBe(false);
    expect(actionAllowed(support, false, 'orders', 'Refund', 'approvalRequired')).toBe(true);
    expect(actionAllowed(support, false, 'orders', 'Ship', 'approvalRequired')).toBe(false);
    expect(actionAllowed(support, false, 'orders', 'Ship', 'triggerEnabled')).toBe(true);
    expect(actionAllowed(support, true, 'orders', 'Refund', 'approvalRequired')).toBe(false);
    expect(actionAllowed(null, false, 'orders', 'Ship', 'triggerEnabled')).toBe(false);
  });
});

describe('workspacesOf', () => {
  it('lists one workspace per environment of each project, with the project teams', () => {
    const workspaces = workspacesOf({
      user: { id: 1, email: 'a@b.c', firstName: 'A', lastName: 'B' },
      projects: [
        {
          name: 'Shop',
          permissionLevel: 'user',
          role: { id: 2, name: 'Support' },
          teams: [{ id: 3, name: 'Europe' }],
          environments: [
            { name: 'Dev', type: 'development', isDevelopment: true, apiEndpoint: null },
            {
              name: 'Production',
              type: 'production',
              isDevelopment: false,
              apiEndpoint: 'https://agent.example',
            },
          ],
        },
      ],
    });
    expect(workspaces).toEqual([
      {
        id: 'Shop/Dev',
        project: 'Shop',
        environment: 'Dev',
        agentUrl: null,
        development: true,
        renderings: [{ id: 3, name: 'Europe' }],
      },
      {
        id: 'Shop/Production',
        project: 'Shop',
        environment: 'Production',
        agentUrl: 'https://agent.example',
        development: false,
        renderings: [{ id: 3, name: 'Europe' }],
      },
    ]);
  });
});
