// The agent test suite of @canopy/testing's users, run a second time with `@canopy/testing`
// mapped to an adapter whose `createServerSandbox` is backed by a real admin-api-server on
// PostgreSQL (packages/admin-api-server/test/platform-sandbox). See README.md for what is
// included and why the rest is not.
const path = require('node:path');
const preset = require('../../jest.preset.cjs');

const root = path.join(__dirname, '..', '..');
const base = preset(root);

module.exports = {
  ...base,
  displayName: 'agent-suite@admin-api-server',
  testMatch: [
    '<rootDir>/packages/testing/test/agent-lifecycle.test.ts',
    '<rootDir>/packages/testing/test/readme-workflow.test.ts',
    '<rootDir>/packages/agent-core/src/agent/agent.test.ts',
    '<rootDir>/packages/agent-core/src/agent/agent-platform.test.ts',
    '<rootDir>/packages/agent-core/src/agent/agent-routes.test.ts',
    '<rootDir>/packages/agent-core/src/agent/create-agent.test.ts',
    '<rootDir>/packages/agent-core/src/platform/platform-client.test.ts',
    '<rootDir>/packages/agent-core/src/platform/activity-log-reporter.test.ts',
    '<rootDir>/packages/agent-core/src/platform/platform-permission-source.test.ts',
    '<rootDir>/packages/agent-core/src/http/test-client.test.ts',
    '<rootDir>/packages/plugin-flattener/test/agent-http.test.ts',
    '<rootDir>/apps/demo/test/shop-agent.test.ts',
  ],
  // `@canopy/testing` is left to resolver.cjs (the adapter for the tests, the package for the
  // adapter); every other workspace package maps to its sources as in the preset.
  moduleNameMapper: Object.fromEntries(
    Object.entries(base.moduleNameMapper).map(([pattern, target]) => [
      pattern.replace('|testing', ''),
      target,
    ]),
  ),
  resolver: path.join(__dirname, 'resolver.cjs'),
  // As in admin-api-server's own config: oidc-provider 9 and jose 6 are ES modules only.
  transformIgnorePatterns: ['^(?!.*/\\.pnpm/(oidc-provider@|jose@6)).*/node_modules/'],
};
