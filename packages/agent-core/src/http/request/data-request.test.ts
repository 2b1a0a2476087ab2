import type { SessionClaims } from '../../operations/session-claims';
import { openDataRequest } from './data-request';
import type { HttpContext } from './http-context';
import type { HttpRequest, HttpResponse } from './node-http';

const claims: SessionClaims = {
  id: 7,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  team: 'Operations',
  role: 'Admin',
  permissionLevel: 'admin',
  renderingId: 3,
  tags: { region: 'EU' },
  iat: 1_700_000_000,
  exp: 1_800_000_000,
};

function open(url: string, headers: Record<string, string> = {}) {
  const request = {
    url,
    headers,
    socket: { remoteAddress: '127.0.0.1' },
    canopySession: claims,
  } as unknown as HttpRequest;
  const response = {
    getHeader: (name: string) => (name === 'x-forest-correlation-id' ? 'req-1' : undefined),
  } as unknown as HttpResponse;
  return openDataRequest({} as HttpContext, request, response);
}

describe('openDataRequest', () => {
  it("builds the caller from the session's identity and the request, and nothing else", () => {
    const { caller } = open('/forest/books?timezone=Europe%2FParis');
    // The session's identity without the token's own claims (`iat`, `exp`).
    const { iat: _iat, exp: _exp, ...identity } = claims;
    expect(caller).toStrictEqual({
      ...identity,
      timezone: 'Europe/Paris',
      requestId: 'req-1',
      request: { ip: '127.0.0.1' },
    });
    expect(caller).not.toHaveProperty('iat');
  });

  it('adds the correlation kind, project and environment the request names', () => {
    const { caller } = open('/forest/books?timezone=UTC', {
      'x-canopy-correlation-kind': ' Revert ',
      'forest-context-url': 'https://app.example.com/My%20Project/Production/admin',
      'x-forwarded-for': '10.0.0.1',
    });
    expect(caller).toMatchObject({
      timezone: 'UTC',
      correlationKind: 'revert',
      project: 'My Project',
      environment: 'Production',
      request: { ip: '10.0.0.1' },
    });
  });

  it('leaves a malformed correlation kind out and gives every request its own caller', () => {
    const first = open('/forest/books?timezone=UTC', { 'x-canopy-correlation-kind': 'not a kind' });
    const second = open('/forest/books?timezone=UTC');
    expect(first.caller).not.toHaveProperty('correlationKind');
    expect(first.caller).not.toBe(second.caller);
    expect(first.caller.tags).toEqual(second.caller.tags);
  });
});
