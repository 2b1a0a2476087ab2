// One jest run over every workspace project, so CI gets one summary. The console runs its own
// unit tests with Vitest (its dependencies are ESM-only) and its browser suite has its own
// runner (Playwright): scripts/test.mjs runs both after jest and adds their counts.
const { readdirSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const NOT_JEST = new Set(['packages/console', 'internal/console-browser-suite']);

module.exports = {
  projects: ['packages', 'internal', 'apps'].flatMap((group) =>
    readdirSync(join(__dirname, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${group}/${entry.name}`)
      .filter((dir) => !NOT_JEST.has(dir) && existsSync(join(__dirname, dir, 'package.json')))
      .map((dir) => `<rootDir>/${dir}`),
  ),
};
