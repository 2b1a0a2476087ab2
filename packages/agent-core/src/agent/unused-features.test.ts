import { runAgentProbe, source } from '../../test/agent-probe';

/** Packages of features an agent may not use: loading them costs memory to every agent. */
const OPTIONAL_PACKAGES = ['jose', 'zod', '@modelcontextprotocol/sdk', '@electric-sql/pglite'];

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
    const loaded = (name: string) =>
      `Object.keys(require.cache).some((path) => path.includes('/node_modules/${name}/'))`;
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
});
