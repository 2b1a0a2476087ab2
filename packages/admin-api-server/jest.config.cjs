module.exports = require('../../jest.preset.cjs')(__dirname, {
  setupFilesAfterEnv: ['<rootDir>/test/jest-setup.ts'],
  // oidc-provider 9 and its jose 6 are ES modules only: jest's CommonJS runtime needs them
  // compiled like our sources (Node itself loads them with require(esm)).
  transformIgnorePatterns: ['^(?!.*/\\.pnpm/(oidc-provider@|jose@6)).*/node_modules/'],
});
