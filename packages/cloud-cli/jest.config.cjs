module.exports = require('../../jest.preset.cjs')(__dirname, {
  // The end-to-end test runs @canopy/admin-api-server from its sources; its oidc-provider 9 and
  // jose 6 are ES modules only, so jest's CommonJS runtime needs them compiled like our sources.
  transformIgnorePatterns: ['^(?!.*/\\.pnpm/(oidc-provider@|jose@6)).*/node_modules/'],
});
