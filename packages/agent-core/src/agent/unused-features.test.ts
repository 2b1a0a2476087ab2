import { runAgentProbe, source } from '../../test/agent-probe';

/** Packages of features an agent may not use: loading them costs memory to every agent. */
const OPTIONAL_PACKAGES = [
  'jose',
  'zod',
  '@modelcontextprotocol/sdk',
  '@electric-sql/pglite',
  'csv-stringify',
];

const loaded = (name: string) =>
  `Object.keys(require.cache).some((path) => path.includes('/node_modules/${name}/'))`;

/**
 * Features that cost nothing when unused: a separate Node process loads the agent and the SQL
 * data source's embedded database starter, starts an agent without sign-in, AI or MCP, serves a
 * list, and reports which of the optional features' packages it has loaded.
 */
describe('an agent without sign-in, AI, MCP or the embedded database', () => {
  it('does not load their packages', () => {
    const result = runAgentProbe(
      {
        imports: [
          `import { startEmbeddedPostgres } from ${source('packages/datasource-sql/src/embedded/start-embedded-postgres')};`,
        ],
        running: [
          '  void startEmbeddedPostgres;',
          `  await fetch(\`http://127.0.0.1:\${agent.standaloneServerPort}/forest/books\`);`,
        ],
        stopped: [
          `  const loaded = ${JSON.stringify(OPTIONAL_PACKAGES)}.filter((name) =>`,
          '    Object.keys(require.cache).some((path) => path.includes(`/node_modules/${name}/`)),',
          '  );',
          '  console.log(JSON.stringify(loaded));',
        ],
      },
      60_000,
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual([]);
  }, 90_000);

  it('loads the MCP server only for its first request when the MCP server is mounted', () => {
    const result = runAgentProbe(
      {
        mounts: ['.mountAiMcpServer()'],
        running: [
          `  await fetch(\`http://127.0.0.1:\${agent.standaloneServerPort}/forest/books\`);`,
          `  const before = ${loaded('@modelcontextprotocol/sdk')};`,
          `  const mcp = await fetch(\`http://127.0.0.1:\${agent.standaloneServerPort}/mcp\`, { method: 'POST' });`,
          `  const after = ${loaded('@modelcontextprotocol/sdk')};`,
        ],
        stopped: ['  console.log(JSON.stringify({ before, status: mcp.status, after }));'],
      },
      60_000,
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual({ before: false, status: 401, after: true });
  }, 90_000);

  // express (request bodies) is loaded on first use too, but the platform sandbox in the probe's
  // process loads it itself: checked here is that the first body is parsed.
  it('parses the first request body and loads csv-stringify for the first export', () => {
    const url = '`http://127.0.0.1:${agent.standaloneServerPort}/forest';
    const result = runAgentProbe(
      {
        imports: [
          `import { signSessionToken } from ${source('packages/agent-core/src/http/index')};`,
        ],
        running: [
          '  const token = signSessionToken({ id: 1, email: "ada@example.com", firstName: "Ada",',
          '    lastName: "Lovelace", team: "admin", role: "Admin", permissionLevel: "admin",',
          "    renderingId: 1, tags: {} }, 'a');",
          '  const headers = { Authorization: `Bearer ${token}` };',
          `  const created = await fetch(${url}/books?timezone=UTC\`, {`,
          "    method: 'POST',",
          "    headers: { ...headers, 'Content-Type': 'application/json' },",
          "    body: JSON.stringify({ data: { type: 'books', attributes: { id: 7 } } }),",
          '  });',
          `  const csvBefore = ${loaded('csv-stringify')};`,
          `  const csv = await fetch(${url}/books.csv?timezone=UTC&header=id&fields[books]=id\`, { headers });`,
          '  const csvText = await csv.text();',
        ],
        stopped: [
          '  console.log(JSON.stringify({ created: created.status,',
          '    csvBefore, csv: csv.status, csvText }));',
        ],
      },
      60_000,
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual({
      created: 200,
      csvBefore: false,
      csv: 200,
      csvText: 'id\n7\n',
    });
  }, 90_000);
});
