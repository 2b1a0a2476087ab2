import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';

// The import-boundary rules of eslint.config.mjs, run on a probe file written for the time of
// the test at the place named (module resolution needs a real file): they must refuse an upward
// import between agent-core's layers and a path into another package, and accept an import the
// boundaries allow. (Undeclared packages: see the README's manual check; through ESLint's API the
// rule does not resolve workspace packages as the CLI does.)
const root = join(__dirname, '..', '..', '..');
const eslint = new ESLint({ cwd: root });

async function problems(folder: string, code: string): Promise<string[]> {
  const file = join(root, folder, `boundary-probe-${process.pid}.ts`);
  const created = !existsSync(join(root, folder));
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(file, code);
  try {
    const [result] = await eslint.lintFiles([file]);
    return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
  } finally {
    rmSync(created ? join(root, folder) : file, { recursive: true, force: true });
  }
}

jest.setTimeout(60_000);

describe('import boundaries', () => {
  it('refuses an upward import from a lower layer of agent-core', async () => {
    const found = await problems(
      'packages/agent-core/src/toolkit',
      "import { createAgentRouter } from '../http';\n\nexport const probe = createAgentRouter;\n",
    );
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*toolkit\/ is below customizer/),
    ]);
  });

  it('places the operations layer below the adapters (it applies once src/operations/ exists)', async () => {
    const found = await problems(
      'packages/agent-core/src/operations',
      "import { createAgentRouter } from '../http';\n\nexport const probe = createAgentRouter;\n",
    );
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*operations\/ is below .*\bhttp\b/),
    ]);
  });

  it('refuses the protocol layer to the operations layer, once-listed debt included', async () => {
    // The serializer (then in http/) was on the list of helpers operations/ could still read.
    const found = await problems(
      'packages/agent-core/src/operations',
      "import { serializeRecords } from '../protocol/serializer/json-api';\n\nexport const probe = serializeRecords;\n",
    );
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*operations\/ is below protocol/),
    ]);
  });

  it('refuses http/ to mcp/ (the adapters share protocol/)', async () => {
    const found = await problems(
      'packages/agent-core/src/mcp/tools',
      "import { parsePage } from '../../protocol/query/page';\n" +
        "import { toErrorEnvelope } from '../../http/errors/error-handler';\n\n" +
        'export const probe = [parsePage, toErrorEnvelope];\n',
    );
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*mcp\/ is beside http\//),
    ]);
  });

  it('lets the MCP mount adapter wire MCP onto the HTTP pipeline', async () => {
    // The one file of mcp/ the rule exempts (it imports http/'s pipeline), linted as it is.
    const mount = join(root, 'packages/agent-core/src/mcp/mcp-server-mount.ts');
    expect(readFileSync(mount, 'utf8')).toMatch(/from '\.\.\/http\//);
    const [result] = await eslint.lintFiles([mount]);
    const restricted = (result?.messages ?? []).filter(
      (message) => message.ruleId === 'import-x/no-restricted-paths',
    );
    expect(restricted).toEqual([]);
  });

  // Every zone of agent-core, each with an import from the layer right above it (a layer's
  // folders share one zone rule: the layers above it).
  it.each([
    ['toolkit', 'customizer', "import { DecoratorStack } from '../customizer/decorator-stack';"],
    ['customizer', 'platform', "import { PlatformError } from '../platform/platform-error';"],
    ['platform', 'operations', "import { findCollection } from '../operations/context';"],
    ['operations', 'protocol', "import { parsePage } from '../protocol/query/page';"],
    ['protocol', 'http', "import { createAgentRouter } from '../http';"],
    ['protocol', 'mcp', "import { toolRefusal } from '../mcp/tool-refusal';"],
    ['audit-trail', 'http', "import { authenticate } from '../http/auth/authenticate';"],
    ['http', 'agent', "import { createAgent } from '../agent';"],
    ['schema', 'http', "import { createAgentRouter } from '../http';"],
    ['mcp', 'agent', "import { createAgent } from '../agent';"],
    ['ai', 'agent', "import { createAgent } from '../agent';"],
  ])('the %s/ zone refuses an import from %s/', async (folder, above, statement) => {
    const name = statement.match(/\{ (\w+) \}/)?.[1];
    const found = await problems(
      `packages/agent-core/src/${folder}`,
      `${statement}\n\nexport const probe = ${name};\n`,
    );
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(`^import-x/no-restricted-paths: .*${folder}/ is below .*\\b${above}\\b`),
      ),
    ]);
  });

  it('lets the audit trail use the customizer and the operations', async () => {
    const found = await problems(
      'packages/agent-core/src/audit-trail',
      "import { DecoratorStack } from '../customizer/decorator-stack';\n" +
        "import { findCollection } from '../operations/context';\n\n" +
        'export const probe = [DecoratorStack, findCollection];\n',
    );
    expect(found).toEqual([]);
  });

  it('accepts a downward import', async () => {
    const found = await problems(
      'packages/agent-core/src/http',
      "import { ValidationError } from '../toolkit/errors/canopy-error';\n\nexport const probe = ValidationError;\n",
    );
    expect(found).toEqual([]);
  });

  it("refuses a path into another package's folder", async () => {
    const found = await problems(
      'packages/plugin-flattener/test',
      "import { createAgent } from '../../agent-core/src/agent';\n\nexport const probe = createAgent;\n",
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-relative-packages: /)]);
  });
});
