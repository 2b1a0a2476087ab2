import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// agent-core's layers, lowest first (docs/architecture.md, "Layers of agent-core"): a layer may
// import only from the layers before it. Tests and test fixtures are exempt (they wire layers
// together).
const AGENT_CORE = 'packages/agent-core/src';
const LAYERS = [
  ['toolkit'],
  ['customizer'],
  ['platform'],
  ['operations', 'audit-trail'],
  ['protocol', 'schema'],
  ['http', 'mcp', 'ai'],
  ['agent', 'index.ts'],
];
const layerZones = [
  ...LAYERS.flatMap((layer, index) => {
    const above = LAYERS.slice(index + 1).flat();
    if (above.length === 0) return [];
    return layer.map((folder) => ({
      target: `./${AGENT_CORE}/${folder}`,
      from: above.map((upper) => `./${AGENT_CORE}/${upper}`),
      message: `agent-core's ${folder}/ is below ${above.join(', ')}: it may not import them (see the README's "Layers").`,
    }));
  }),
  // The two adapters share protocol/, not each other: MCP reaches http/ only where it mounts on
  // the agent's HTTP pipeline.
  {
    target: `./${AGENT_CORE}/mcp/**/!(mcp-server-mount).ts`,
    from: `./${AGENT_CORE}/http`,
    message: `agent-core's mcp/ is beside http/, not above it: it may not import it (only mcp-server-mount.ts mounts on the HTTP pipeline; shared code lives in protocol/).`,
  },
];

// admin-api-server's layers, lowest first (its README, "Layers"): the same rule, a layer imports
// only from the layers before it. Files at the root of src/ are named with their extension.
const ADMIN_API = 'packages/admin-api-server/src';
const ADMIN_API_LAYERS = [
  ['errors', 'logging', 'validation'],
  ['config.ts', 'database'],
  ['integrity'],
  ['store', 'migrations'],
  ['auth', 'rate-limit', 'tokens', 'context.ts'],
  ['http'],
  ['agent-protocol', 'console-live', 'oidc', 'mcp-oauth', 'routes', 'console'],
  ['openapi'],
  ['app.ts', 'server.ts', 'cli', 'cli.ts', 'index.ts', 'internals.ts'],
];
const adminApiZones = ADMIN_API_LAYERS.flatMap((layer, index) => {
  const above = ADMIN_API_LAYERS.slice(index + 1).flat();
  if (above.length === 0) return [];
  return layer.map((entry) => ({
    target: `./${ADMIN_API}/${entry}`,
    from: above.map((upper) => `./${ADMIN_API}/${upper}`),
    message: `admin-api-server's ${entry} is below ${above.join(', ')}: it may not import them (see its README's "Layers").`,
  }));
});

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // Boundaries between packages and between agent-core's layers.
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'] }),
      ],
    },
    rules: {
      // A package reaches another through its name (and its package.json), never through a path
      // into its folder.
      'import-x/no-relative-packages': 'error',
      // Whatever a file imports is declared by the package it belongs to.
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: true }],
    },
  },
  {
    // agent-core's tests, benches and examples also use packages that depend on agent-core:
    // they are declared by internal/agent-core-tests (see its README), not by agent-core.
    files: [
      'packages/agent-core/**/*.test.ts',
      'packages/agent-core/**/test-fixtures/**',
      'packages/agent-core/{test,bench,examples}/**',
    ],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          devDependencies: true,
          packageDir: [
            join(import.meta.dirname, 'packages/agent-core'),
            join(import.meta.dirname, 'internal/agent-core-tests'),
          ],
        },
      ],
    },
  },
  {
    // The console's build config uses tsup, a build tool of the workspace root.
    files: ['packages/console/*.config.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          devDependencies: true,
          packageDir: [import.meta.dirname, join(import.meta.dirname, 'packages/console')],
        },
      ],
    },
  },
  {
    // The shared build config at the root is the workspace's tooling, not a package's code.
    files: ['packages/*/tsup.config.ts'],
    rules: { 'import-x/no-relative-packages': 'off' },
  },
  {
    files: [`${AGENT_CORE}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/test-fixtures/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones }] },
  },
  {
    files: [`${ADMIN_API}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: adminApiZones }] },
  },
  {
    // The console's browser code.
    files: ['packages/console/src/app/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // No component over 300 lines: a larger one is split into hooks and smaller components.
    files: ['packages/console/src/app/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'max-lines-per-function': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
