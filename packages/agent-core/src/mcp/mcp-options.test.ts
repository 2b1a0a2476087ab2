import { isMcpError } from './mcp-error';
import {
  DEFAULT_MCP_SERVER_PORT,
  MCP_TOOL_NAMES,
  resolveEnabledTools,
  resolveMaxUploadBytes,
  resolveMcpOptions,
  resolveMcpPort,
} from './mcp-options';

function thrown(operation: () => unknown): Error {
  try {
    operation();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('enabled tools', () => {
  it('defaults to every tool', () => {
    expect([...resolveEnabledTools(undefined, undefined)]).toEqual([...MCP_TOOL_NAMES]);
    expect([...resolveEnabledTools(undefined, ' ')]).toEqual([...MCP_TOOL_NAMES]);
  });

  it('takes the option, always adding describeCollection', () => {
    expect([...resolveEnabledTools(['list', 'listRelated'], 'delete')]).toEqual([
      'describeCollection',
      'list',
      'listRelated',
    ]);
  });

  it('reads the comma-separated CANOPY_MCP_ENABLED_TOOLS when there is no option', () => {
    expect([...resolveEnabledTools(undefined, 'list, update ,')]).toEqual([
      'describeCollection',
      'list',
      'update',
    ]);
  });

  it('refuses unknown names, saying which and listing the valid ones', () => {
    const error = thrown(() => resolveEnabledTools(undefined, 'list,lsit'));
    expect(isMcpError(error, 'INVALID_MCP_OPTIONS')).toBe(true);
    expect(error.message).toBe(
      'CANOPY_MCP_ENABLED_TOOLS names unknown MCP tools: "lsit". Valid tools: ' +
        `${MCP_TOOL_NAMES.join(', ')}.`,
    );
    expect(thrown(() => resolveEnabledTools(['remove'], undefined)).message).toMatch(
      /^enabledTools names unknown MCP tools: "remove"/,
    );
  });
});

describe('disabled tools and upload bound', () => {
  it('removes the disabled tools (option, else CANOPY_MCP_DISABLED_TOOLS) from the enabled ones', () => {
    expect([...resolveEnabledTools(['list', 'delete'], undefined, ['delete'])]).toEqual([
      'describeCollection',
      'list',
    ]);
    expect([
      ...resolveEnabledTools(undefined, undefined, undefined, 'delete, executeAction'),
    ]).toEqual(MCP_TOOL_NAMES.filter((name) => name !== 'delete' && name !== 'executeAction'));
  });

  it('refuses unknown disabled names and disabling describeCollection, saying why', () => {
    expect(thrown(() => resolveEnabledTools(undefined, undefined, ['dlete'])).message).toMatch(
      /^disabledTools names unknown MCP tools: "dlete"\. Valid tools: /,
    );
    const error = thrown(() =>
      resolveEnabledTools(undefined, undefined, undefined, 'describeCollection'),
    );
    expect(isMcpError(error, 'INVALID_MCP_OPTIONS')).toBe(true);
    expect(error.message).toBe(
      'CANOPY_MCP_DISABLED_TOOLS cannot disable describeCollection: the other tools need the ' +
        'fields and actions it describes to build their arguments.',
    );
  });

  it('bounds uploads by the option, else CANOPY_MCP_MAX_UPLOAD_BYTES, else 5 MiB', () => {
    expect(resolveMaxUploadBytes(undefined, undefined)).toBe(5 * 1024 * 1024);
    expect(resolveMaxUploadBytes(undefined, '1000')).toBe(1000);
    expect(resolveMaxUploadBytes(10, '1000')).toBe(10);
    expect(thrown(() => resolveMaxUploadBytes(-1, undefined)).message).toBe(
      'maxUploadBytes must be a positive integer of bytes, got -1.',
    );
    expect(thrown(() => resolveMaxUploadBytes(undefined, '1.5')).message).toBe(
      'CANOPY_MCP_MAX_UPLOAD_BYTES must be a positive integer of bytes, got "1.5".',
    );
  });
});

describe('standalone port', () => {
  it('defaults to 3931, else MCP_SERVER_PORT, else the option', () => {
    expect(DEFAULT_MCP_SERVER_PORT).toBe(3931);
    expect(resolveMcpPort(undefined, undefined)).toBe(3931);
    expect(resolveMcpPort(undefined, '4000')).toBe(4000);
    expect(resolveMcpPort(0, '4000')).toBe(0);
  });

  it('refuses ports that are not integers from 0 to 65535', () => {
    expect(thrown(() => resolveMcpPort(undefined, 'http')).message).toBe(
      'MCP_SERVER_PORT must be an integer between 0 and 65535, got "http".',
    );
    expect(thrown(() => resolveMcpPort(70_000, undefined)).message).toMatch(/^standalone.port/);
  });
});

describe('mountAiMcpServer options', () => {
  it('applies defaults and the environment', () => {
    expect(resolveMcpOptions({ standalone: true }, { MCP_SERVER_PORT: '4100' })).toEqual({
      enabledTools: new Set(MCP_TOOL_NAMES),
      maxUploadBytes: 5 * 1024 * 1024,
      standalone: { port: 4100, host: undefined },
      publicUrl: null,
      appUrl: null,
      accessTokenSeconds: null,
      refreshTokenSeconds: null,
      allowedOAuthClients: null,
    });
    const resolved = resolveMcpOptions(
      { tokenTtl: { accessTokenSeconds: 10, refreshTokenSeconds: 7200 } },
      { CANOPY_APP_URL: 'https://app.example.com/' },
    );
    expect(resolved).toMatchObject({
      standalone: null,
      appUrl: 'https://app.example.com',
      accessTokenSeconds: 60,
      refreshTokenSeconds: 7200,
    });
  });

  it('reads the OAuth client domains from the option or CANOPY_MCP_ALLOWED_OAUTH_CLIENTS', () => {
    expect(
      resolveMcpOptions({}, { CANOPY_MCP_ALLOWED_OAUTH_CLIENTS: 'Claude.ai, example.com' })
        .allowedOAuthClients,
    ).toEqual(['claude.ai', 'example.com']);
    expect(resolveMcpOptions({ allowedOAuthClients: [] }, {}).allowedOAuthClients).toEqual([]);
    expect(() => resolveMcpOptions({ allowedOAuthClients: ['https://x.com'] }, {})).toThrow(
      'allowedOAuthClients must list domain names such as "example.com", got ["https://x.com"].',
    );
  });

  it('says what is wrong with URLs and lifetimes', () => {
    expect(thrown(() => resolveMcpOptions({ publicUrl: 'ftp://x' }, {})).message).toBe(
      'publicUrl must be an http(s) URL, got "ftp://x".',
    );
    expect(
      thrown(() => resolveMcpOptions({ publicUrl: 'https://x.example.com/ai' }, {})).message,
    ).toMatch(/without a path/);
    expect(
      thrown(() => resolveMcpOptions({ tokenTtl: { accessTokenSeconds: 1.5 } }, {})).message,
    ).toBe('tokenTtl.accessTokenSeconds must be a positive integer of seconds, got 1.5.');
  });
});
