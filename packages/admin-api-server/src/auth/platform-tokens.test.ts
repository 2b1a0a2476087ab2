import jwt from 'jsonwebtoken';
import {
  bearerToken,
  signApplicationToken,
  signSessionToken,
  verifyPlatformToken,
  type ApplicationTokenClaims,
} from './platform-tokens';

const keys = [
  { id: 'new', secret: 'new-secret-new-secret-new-secret-0000' },
  { id: 'old', secret: 'old-secret-old-secret-old-secret-0000' },
];
const inAnHour = new Date(Date.now() + 3_600_000);

it('signs with the newest key and verifies with any configured key', () => {
  const token = signApplicationToken(keys, {
    tokenId: 'abc',
    userId: 7,
    projectId: 3,
    expiresAt: inAnHour,
  });
  expect(jwt.decode(token, { complete: true })?.header.kid).toBe('new');
  expect(verifyPlatformToken<ApplicationTokenClaims>(token, keys, 'application')).toMatchObject({
    jti: 'abc',
    sub: '7',
    prj: 3,
  });
  const rotated = signApplicationToken([keys[1]!], {
    tokenId: 'x',
    userId: 1,
    projectId: 1,
    expiresAt: inAnHour,
  });
  expect(verifyPlatformToken(rotated, keys, 'application')).toMatchObject({ jti: 'x' });
  expect(() => verifyPlatformToken(rotated, [keys[0]!], 'application')).toThrow(
    'not signed by this server',
  );
});

it('refuses tokens of the wrong kind or with claims it cannot use', () => {
  const session = signSessionToken(keys, { userId: 7, sso: true, expiresAt: inAnHour });
  expect(() => verifyPlatformToken(session, keys, 'application')).toThrow(
    'not an application token',
  );
  const noJti = jwt.sign({ typ: 'application', sub: '7', prj: 1 }, keys[0]!.secret, {
    algorithm: 'HS256',
    keyid: 'new',
    issuer: 'canopy-admin-api',
    expiresIn: 60,
  });
  expect(() => verifyPlatformToken(noJti, keys, 'application')).toThrow('not an application token');
  const badSub = jwt.sign({ typ: 'session', sub: 'admin', sso: false }, keys[0]!.secret, {
    algorithm: 'HS256',
    keyid: 'new',
    issuer: 'canopy-admin-api',
    expiresIn: 60,
  });
  expect(() => verifyPlatformToken(badSub, keys, 'session')).toThrow('not a user session token');
  const hs512 = jwt.sign({ typ: 'session', sub: '1' }, keys[0]!.secret, {
    algorithm: 'HS512',
    keyid: 'new',
  });
  expect(() => verifyPlatformToken(hs512, keys, 'session')).toThrow('must be signed with HS256');
});

it('reads only the Bearer scheme', () => {
  expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
  expect(bearerToken('bearer  abc')).toBe('abc');
  expect(() => bearerToken(undefined)).toThrow('Missing bearer token');
  expect(() => bearerToken('Token abc')).toThrow('Missing bearer token');
});
