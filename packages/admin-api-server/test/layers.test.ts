import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ESLint } from 'eslint';

// The layer rule of eslint.config.mjs for admin-api-server (README, "Layers"), run on a probe
// file written for the time of the test in the folder named (module resolution needs a real
// file): every layer refuses an import from a layer above it, and accepts one from below.
const root = join(__dirname, '..', '..', '..');
const src = join('packages', 'admin-api-server', 'src');
const eslint = new ESLint({ cwd: root });

async function problems(folder: string, code: string): Promise<string[]> {
  const dir = join(root, src, folder);
  const file = join(dir, `layer-probe-${process.pid}.ts`);
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, code);
  try {
    const [result] = await eslint.lintFiles([file]);
    return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
  } finally {
    rmSync(created ? dir : file, { recursive: true, force: true });
  }
}

const probe = (from: string, name: string) =>
  `import { ${name} } from '${from}';\n\nexport const probe = ${name};\n`;

jest.setTimeout(120_000);

// One forbidden import per layer but the top: [the probe's folder, an import from a layer above].
const FORBIDDEN: [folder: string, from: string, name: string, below: string][] = [
  ['errors', '../config', 'loadConfig', 'errors'],
  ['validation', '../store/cursor', 'encodeTimeCursor', 'validation'],
  ['database', '../integrity/hash-chain', 'chainHash', 'database'],
  ['integrity', '../store/cursor', 'encodeTimeCursor', 'integrity'],
  ['store', '../auth/token-context-cache', 'TokenContextCache', 'store'],
  ['store', '../auth/mcp-tokens', 'verifyMcpToken', 'store'],
  ['auth', '../http/body', 'jsonBody', 'auth'],
  ['http', '../routes/operations', 'operationsRouter', 'http'],
  ['routes', '../openapi/document', 'buildOpenApiDocument', 'routes'],
  ['openapi', '../app', 'createApp', 'openapi'],
];

describe("admin-api-server's layers", () => {
  it.each(FORBIDDEN)('%s/ may not import %s', async (folder, from, name, below) => {
    expect(await problems(folder, probe(from, name))).toEqual([
      expect.stringMatching(
        new RegExp(`^import-x/no-restricted-paths: .* admin-api-server's ${below} is below `),
      ),
    ]);
  });

  it('places every folder and root file of src/ on a layer', async () => {
    const config = await eslint.calculateConfigForFile(join(root, src, 'store', 'cursor.ts'));
    const [, { zones }] = config.rules['import-x/no-restricted-paths'] as [
      unknown,
      { zones: { target: string; from: string[] }[] },
    ];
    const placed = new Set(
      zones.flatMap((zone) => [zone.target, ...zone.from]).map((path) => basename(path)),
    );
    const entries = readdirSync(join(root, src), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || !entry.name.endsWith('.test.ts'))
      .map((entry) => entry.name);
    expect(entries.filter((name) => !placed.has(name))).toEqual([]);
  });

  it('accepts imports from the layers below', async () => {
    expect(await problems('routes', probe('../store/cursor', 'encodeTimeCursor'))).toEqual([]);
    expect(await problems('store', probe('../integrity/hash-chain', 'chainHash'))).toEqual([]);
    expect(await problems('auth', probe('../store/access-changes', 'publishAccessChange'))).toEqual(
      [],
    );
  });
});
