// One jest run over every workspace project, so CI gets one summary. The console runs its own
// unit tests with Vitest (its dependencies are ESM-only) and its browser suite with Playwright:
// scripts/test.mjs runs both after jest and adds their counts.
const { readdirSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const VITEST_PROJECTS = new Set(['packages/console']);

module.exports = {
  projects: ['packages', 'internal', 'apps'].flatMap((group) =>
    readdirSync(join(__dirname, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${group}/${entry.name}`)
      .filter(
        (dir) => !VITEST_PROJECTS.has(dir) && existsSync(join(__dirname, dir, 'package.json')),
      )
      .map((dir) => `<rootDir>/${dir}`),
  ),
};
