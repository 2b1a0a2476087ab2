import { ConfigError, loadConfig, parseSigningKeys } from './config';

const KEYS = 'k2:0123456789abcdef0123456789abcdef,k1:fedcba9876543210fedcba9876543210';

describe('loadConfig', () => {
  it('defaults to the embedded PostgreSQL and reads every variable', () => {
    expect(loadConfig({ CANOPY_TOKEN_SIGNING_KEYS: KEYS }).database).toEqual({
      kind: 'embedded',
      dataDir: '.canopy-data',
    });
    const config = loadConfig({
      CANOPY_TOKEN_SIGNING_KEYS: KEYS,
      DATABASE_URL: 'postgres://u:p@db:5432/canopy?schema=api',
      DATABASE_POOL_SIZE: '4',
      PORT: '8080',
      RATE_LIMIT_POINTS: '20',
      RATE_LIMIT_DURATION_SECONDS: '2',
      RATE_LIMIT_BURST_POINTS: '0',
      RATE_LIMIT_BURST_DURATION_SECONDS: '30',
      TOKEN_DEFAULT_LIFETIME_DAYS: '90',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({
      database: { kind: 'url', url: 'postgres://u:p@db:5432/canopy?schema=api', poolSize: 4 },
      port: 8080,
      rateLimit: { points: 20, durationSeconds: 2, burstPoints: 0, burstDurationSeconds: 30 },
      defaultTokenLifetimeDays: 90,
      logLevel: 'warn',
      trustProxy: true,
    });
    expect(config.signingKeys.map((key) => key.id)).toEqual(['k2', 'k1']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer'],
    [{ RATE_LIMIT_POINTS: '0' }, 'RATE_LIMIT_POINTS must be an integer ≥ 1'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL must use postgres://'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
  ])('names the bad variable in %j', (env, message) => {
    expect(() => loadConfig({ CANOPY_TOKEN_SIGNING_KEYS: KEYS, ...env })).toThrow(message);
  });

  it('needs signing keys unless told otherwise', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(loadConfig({}, { requireSigningKeys: false }).signingKeys).toEqual([]);
  });
});

describe('CANOPY_CONSOLE_CONNECT_SRC', () => {
  it('lists the origins the console may call besides the platform and the agents', () => {
    const config = loadConfig({
      CANOPY_TOKEN_SIGNING_KEYS: KEYS,
      CANOPY_CONSOLE_CONNECT_SRC: 'https://hooks.example.com/, http://127.0.0.1:8080',
    });
    expect(config.console?.connectOrigins).toEqual([
      'https://hooks.example.com',
      'http://127.0.0.1:8080',
    ]);
    expect(loadConfig({ CANOPY_TOKEN_SIGNING_KEYS: KEYS }).console?.connectOrigins).toEqual([]);
  });

  it('refuses anything but http(s) origins, naming the value', () => {
    for (const bad of ['*', 'https://hooks.example.com/path', 'javascript:alert(1)']) {
      expect(() =>
        loadConfig({ CANOPY_TOKEN_SIGNING_KEYS: KEYS, CANOPY_CONSOLE_CONNECT_SRC: bad }),
      ).toThrow(`got "${bad}"`);
    }
  });
});

describe('parseSigningKeys', () => {
  it.each([
    ['k1:short'],
    ['nocolon0123456789abcdef0123456789abcdef'],
    ['bad id:0123456789abcdef0123456789abcdef'],
  ])('rejects %s without echoing the secret', (raw) => {
    let message = '';
    try {
      parseSigningKeys(raw);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('entry 1 must be "id:secret"');
    expect(message).not.toContain('0123456789abcdef');
    expect(message).not.toContain('short');
  });
});
