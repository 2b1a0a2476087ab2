import { version } from '../../package.json';
import type { EnvironmentInfo } from '../platform/environment-lookup';

/** What the files of a new customization directory are made from. */
export interface TemplateInput {
  name: string;
  serverUrl: string;
  envSecret: string;
  authSecret: string;
  databaseUrl: string;
  environment: EnvironmentInfo;
}

/** The files of a new customization directory (path relative to it → content). */
export function projectTemplates(input: TemplateInput): Record<string, string> {
  return {
    'package.json': packageJson(input.name),
    'tsconfig.json': `${JSON.stringify(TSCONFIG, null, 2)}\n`,
    '.env': envFile(input),
    '.gitignore': ['node_modules', 'dist', '.env', ''].join('\n'),
    'src/index.ts': ENTRY,
    'src/start.ts': START,
    'README.md': readme(input),
  };
}

function packageJson(name: string): string {
  const range = `^${version}`;
  return `${JSON.stringify(
    {
      name,
      private: true,
      scripts: {
        start: 'node --env-file=.env --import tsx src/start.ts',
        typecheck: 'tsc --noEmit',
        'update-typings': 'canopy-cloud update-typings',
        login: 'canopy-cloud login',
      },
      dependencies: {
        '@canopy/agent-core': range,
        '@canopy/datasource-sql': range,
        tsx: '^4.23.0',
      },
      devDependencies: {
        '@canopy/cloud-cli': range,
        '@types/node': '^20.19.0',
        typescript: '^5.9.3',
      },
      engines: { node: '>=20.6' },
    },
    null,
    2,
  )}\n`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'preserve',
    moduleResolution: 'bundler',
    strict: true,
    noUncheckedIndexedAccess: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    noEmit: true,
  },
  include: ['src'],
};

function envFile(input: TemplateInput): string {
  return [
    '# Written by canopy-cloud bootstrap. Secrets: never commit this file.',
    `CANOPY_SERVER_URL=${input.serverUrl}`,
    `CANOPY_ENV_SECRET=${input.envSecret}`,
    `CANOPY_AUTH_SECRET=${input.authSecret}`,
    `DATABASE_URL=${input.databaseUrl}`,
    'PORT=3351',
    '',
  ].join('\n');
}

const ENTRY = `import type { Agent } from '@canopy/cloud-cli';
import type { Schema } from './typings';

/**
 * Your customizations: computed fields, relations, actions, segments, charts...
 * Collection and field names are checked against src/typings.ts; run
 * \`npx canopy-cloud update-typings\` after changing the database or this file.
 */
export default function customizeAgent(agent: Agent<Schema>): void {
  // For example: agent.customizeCollection('orders', (orders) => orders.removeField('notes'));
}
`;

const START = `import { createAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';
import customizeAgent from './index';
import type { Schema } from './typings';

// Starts the agent with the settings of .env (CANOPY_SERVER_URL, CANOPY_ENV_SECRET,
// CANOPY_AUTH_SECRET, DATABASE_URL, PORT): \`npm start\`.
const agent = createAgent<Schema>({
  isProduction: process.env.NODE_ENV === 'production',
  typingsPath: 'src/typings.ts',
  typingsMaxDepth: 3,
}).addDataSource(createSqlDataSource(process.env.DATABASE_URL ?? ''));

customizeAgent(agent);

agent.mountOnStandaloneServer(Number(process.env.PORT ?? 3351)).start().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
`;

function readme(input: TemplateInput): string {
  const { project, environment } = input.environment;
  return `# ${input.name}

Customizations of the Canopy agent of project **${project.name}**, environment
**${environment.name}**, created by \`canopy-cloud bootstrap\`.

| file | what it is |
|---|---|
| \`src/index.ts\` | your customizations (edit this) |
| \`src/typings.ts\` | generated types of your collections (do not edit) |
| \`src/start.ts\` | starts the agent with your customizations |
| \`.env\` | credentials; kept out of git by \`.gitignore\` |

\`\`\`console
$ npm install
$ npm start                          # start the agent on PORT (3351)
$ npx canopy-cloud update-typings   # after changing the database or src/index.ts
$ npm run typecheck
\`\`\`
`;
}
