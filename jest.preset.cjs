// Shared jest settings for every workspace package: TypeScript through @swc/jest (type-checking
// is `pnpm typecheck`'s job), and workspace packages resolved to their sources so a test never
// depends on a stale build.
const path = require('node:path');

const root = __dirname;

/** @param {string} packageDir @param {import('jest').Config} [overrides] */
module.exports = function preset(packageDir, overrides = {}) {
  return {
    displayName: path.basename(packageDir),
    rootDir: packageDir,
    testEnvironment: 'node',
    // Tests talk to real databases and servers; CI runs ~3,000 of them on a loaded 2-core machine,
    // where jest's 5 s default fails tests for being slow, not wrong. A test that bounds a time as
    // part of its behaviour says so itself.
    testTimeout: 30_000,
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript' },
            target: 'es2022',
            keepClassNames: true,
          },
          module: { type: 'commonjs' },
        },
      ],
    },
    moduleNameMapper: {
      '^@canopy/test-databases$': path.join(root, 'internal/test-databases/src/index.ts'),
      '^@canopy/test-browser$': path.join(root, 'internal/test-browser/src/index.ts'),
      '^@canopy/agent-core/toolkit$': path.join(root, 'packages/agent-core/src/toolkit/index.ts'),
      '^@canopy/(agent-core|datasource-sql|plugin-flattener|testing|cloud-cli|admin-api-server|embedded-postgres|platform-protocol)$':
        path.join(root, 'packages/$1/src/index.ts'),
    },
    ...overrides,
  };
};
