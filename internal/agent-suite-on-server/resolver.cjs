// Resolves `@canopy/testing` for the `agent-suite@admin-api-server` project: to the
// server-backed adapter (packages/admin-api-server/test/platform-sandbox) for every test, and to
// the package's own sources for the adapter itself, which re-exports the package (so neither
// needs a path into the other package's folder).
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const adapterDir = path.join(root, 'packages/admin-api-server/test/platform-sandbox');
const adapter = path.join(adapterDir, 'index.ts');
const testing = path.join(root, 'packages/testing/src/index.ts');

module.exports = (request, options) => {
  if (request === '@canopy/testing') {
    const fromAdapter = !path.relative(adapterDir, options.basedir).startsWith('..');
    return fromAdapter ? testing : adapter;
  }
  return options.defaultResolver(request, options);
};
