import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAgentError } from './agent-error';
import type { AgentOptionsError } from './agent-options-error';
import { type AgentOptions, resolveAgentOptions } from './agent-options';

const ENV_SECRET = 'a'.repeat(64);
const AUTH_SECRET = 'a-very-private-auth-secret';
const cwd = mkdtempSync(join(tmpdir(), 'canopy-options-'));

function problemsOf(options: unknown, env: Record<string, string> = {}): Record<string, string> {
  try {
    resolveAgentOptions(options as AgentOptions, { env, cwd });
  } catch (error) {
    expect(isAgentError(error, 'INVALID_AGENT_OPTIONS')).toBe(true);
    return Object.fromEntries(
      (error as AgentOptionsError).problems.map(({ option, message }) => [option, message]),
    );
  }
  throw new Error('expected the options to be rejected');
}

describe('resolveAgentOptions', () => {
  it('applies the defaults', () => {
    const resolved = resolveAgentOptions(
      { authSecret: AUTH_SECRET, envSecret: ENV_SECRET },
      { env: {}, cwd },
    );
    expect(resolved).toMatchObject({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      serverUrl: null,
      isProduction: false,
      loggerLevel: 'Info',
      prefix: '/forest',
      schemaPath: join(cwd, '.canopy-schema.json'),
      typingsPath: null,
      typingsMaxDepth: 5,
      useUnsafeActionEndpoint: false,
    });
  });

  it('falls back to the CANOPY_* environment variables, options first', () => {
    const env = {
      CANOPY_AUTH_SECRET: 'from-env',
      CANOPY_ENV_SECRET: 'b'.repeat(64),
      CANOPY_SERVER_URL: 'https://platform.example.com/',
    };
    expect(resolveAgentOptions({}, { env, cwd })).toMatchObject({
      authSecret: 'from-env',
      envSecret: 'b'.repeat(64),
      serverUrl: 'https://platform.example.com',
    });
    expect(
      resolveAgentOptions(
        { envSecret: ENV_SECRET, serverUrl: 'http://localhost:3000' },
        { env, cwd },
      ),
    ).toMatchObject({ envSecret: ENV_SECRET, serverUrl: 'http://localhost:3000' });
  });

  it('reports every missing secret at once', () => {
    const problems = problemsOf({});
    expect(problems.authSecret).toMatch(/missing.*CANOPY_AUTH_SECRET/);
    expect(problems.envSecret).toMatch(/missing.*CANOPY_ENV_SECRET/);
  });

  it('never prints a secret value', () => {
    const leaked = 'ABCDEF-not-hex-secret-value';
    try {
      resolveAgentOptions({ authSecret: AUTH_SECRET, envSecret: leaked }, { env: {}, cwd });
      throw new Error('expected a rejection');
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('envSecret: must be 64 lowercase hexadecimal characters');
      expect(message).toContain(`a string of ${leaked.length} characters`);
      expect(message).not.toContain(leaked);
    }
  });

  it('rejects wrong types, malformed URLs and unknown options with what would be right', () => {
    const problems = problemsOf({
      authSecret: 42,
      envSecret: ENV_SECRET,
      serverUrl: 'ftp://platform',
      isProduction: 'yes',
      loggerLevel: 'Verbose',
      logger: 'console',
      prefix: 'admin api',
      typingsMaxDepth: -1,
      useUnsafeActionEndpoint: 1,
      forestServerUrl: 'https://x',
    });
    expect(problems).toEqual({
      authSecret: 'must be a non-empty string, got a value of type number',
      serverUrl: 'must be an http(s) URL such as https://canopy.example.com, got "ftp://platform"',
      isProduction: 'must be true or false, got "yes"',
      loggerLevel: 'must be one of Debug, Info, Warn, Error, got "Verbose"',
      logger: 'must be a function (level, message, error?) => void, got "console"',
      prefix: expect.stringContaining('must be a path of URL-safe segments starting with /'),
      typingsMaxDepth: 'must be a non-negative integer, got number -1',
      useUnsafeActionEndpoint: 'must be true or false, got number 1',
      forestServerUrl: expect.stringContaining('is not an agent option; valid options are'),
    });
  });

  it('names CANOPY_SERVER_URL when the bad URL comes from the environment', () => {
    const problems = problemsOf(
      { authSecret: AUTH_SECRET, envSecret: ENV_SECRET },
      { CANOPY_SERVER_URL: 'not a url' },
    );
    expect(Object.keys(problems)).toEqual(['CANOPY_SERVER_URL']);
  });

  it('requires the directories of the schema and typings files to exist', () => {
    const problems = problemsOf({
      authSecret: AUTH_SECRET,
      envSecret: ENV_SECRET,
      schemaPath: 'missing-dir/.canopy-schema.json',
      typingsPath: 'other-missing/typings.ts',
    });
    expect(problems.schemaPath).toMatch(/directory that does not exist .*missing-dir/);
    expect(problems.typingsPath).toMatch(/other-missing/);
  });

  it('normalises the prefix and filters log lines below loggerLevel', () => {
    const lines: string[] = [];
    const resolved = resolveAgentOptions(
      {
        authSecret: AUTH_SECRET,
        envSecret: ENV_SECRET,
        prefix: '/admin/api/',
        loggerLevel: 'Warn',
        logger: (level, message) => lines.push(`${level} ${message}`),
      },
      { env: {}, cwd },
    );
    expect(resolved.prefix).toBe('/admin/api');
    resolved.logger('Info', 'hidden');
    resolved.logger('Warn', 'shown');
    resolved.logger('Error', 'shown too');
    expect(lines).toEqual(['Warn shown', 'Error shown too']);
  });
});

describe('the auditTrail option', () => {
  const base = { authSecret: AUTH_SECRET, envSecret: ENV_SECRET };

  it('is off by default, and takes connectionString, schema, table and redact', () => {
    expect(resolveAgentOptions(base, { env: {}, cwd }).auditTrail).toBeNull();
    expect(resolveAgentOptions({ ...base, auditTrail: {} }, { env: {}, cwd }).auditTrail).toEqual({
      connectionString: null,
      schema: null,
      table: 'canopy_audit_trail',
      redact: [],
    });
    expect(
      resolveAgentOptions(
        {
          ...base,
          auditTrail: {
            connectionString: 'postgres://history@db.example:5432/audit',
            schema: 'history',
            table: 'record_history',
            redact: ['password', 'users.apiKey'],
          },
        },
        { env: {}, cwd },
      ).auditTrail,
    ).toEqual({
      connectionString: 'postgres://history@db.example:5432/audit',
      schema: 'history',
      table: 'record_history',
      redact: ['password', 'users.apiKey'],
    });
  });

  it('says which part is wrong, without the connection string', () => {
    expect(problemsOf({ ...base, auditTrail: 'yes' }).auditTrail).toMatch(
      /^expected an object \{ connectionString\?, schema\?, table\?, redact\? \}/,
    );
    expect(problemsOf({ ...base, auditTrail: { tabel: 'x' } }).auditTrail).toBe(
      'unknown key "tabel" (known: connectionString, schema, table, redact).',
    );
    const secretUrl = 'redis://user:s3cret@cache:6379';
    const connection = problemsOf({ ...base, auditTrail: { connectionString: secretUrl } });
    expect(connection.auditTrail).toBe(
      'connectionString must be a postgres://, mysql:// or mariadb:// URL.',
    );
    expect(JSON.stringify(connection)).not.toContain('s3cret');
    expect(problemsOf({ ...base, auditTrail: { table: 'drop table;' } }).auditTrail).toMatch(
      /^table must be an SQL identifier/,
    );
    expect(problemsOf({ ...base, auditTrail: { schema: 1 } }).auditTrail).toMatch(
      /^schema must be an SQL identifier/,
    );
    expect(problemsOf({ ...base, auditTrail: { redact: ['ok', ''] } }).auditTrail).toMatch(
      /^redact must list field names/,
    );
  });
});
