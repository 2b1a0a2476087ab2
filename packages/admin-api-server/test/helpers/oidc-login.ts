import { CookieJar } from '@canopy/test-browser';

/** What the agent answers at the end of a login: its session token and the user's claims. */
export interface AgentLogin {
  token: string;
  tokenData: Record<string, unknown>;
}

/**
 * Logs a user in to an agent the way the admin front end and a browser do, over HTTP: the
 * agent's `POST /authentication` gives the authorization URL on the server, the login form is
 * posted with the user's email and password, the browser follows the redirects to the callback,
 * and the agent exchanges the code for its session token.
 *
 * @param agentUrl the agent's base URL with its prefix (`http://…/forest`).
 * @throws Error naming the step that did not answer as expected.
 */
export async function loginThroughOidc(input: {
  serverUrl: string;
  agentUrl: string;
  renderingId: number;
  email: string;
  password: string;
}): Promise<AgentLogin> {
  const { serverUrl, agentUrl } = input;
  const started = await fetch(`${agentUrl}/authentication`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ renderingId: input.renderingId }),
  });
  if (started.status !== 200) throw new Error(`POST /authentication: ${started.status}`);
  const { authorizationUrl } = (await started.json()) as { authorizationUrl: string };
  const jar = new CookieJar();
  const authorize = await fetch(authorizationUrl, { redirect: 'manual' });
  jar.store(authorize);
  const loginUrl = new URL(authorize.headers.get('location')!, serverUrl).toString();
  const submitted = await fetch(`${loginUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: input.email, password: input.password }).toString(),
  });
  if (submitted.status !== 303) throw new Error(`The login form answered ${submitted.status}`);
  jar.store(submitted);
  const resumed = await fetch(new URL(submitted.headers.get('location')!, serverUrl), {
    redirect: 'manual',
    headers: { cookie: jar.header() },
  });
  const callback = new URL(resumed.headers.get('location')!, serverUrl);
  if (callback.pathname !== '/oidc/callback') {
    throw new Error(`The provider redirected to ${callback.pathname}`);
  }
  // The front end reads the authorization response from the callback page and passes all of it
  // (code, state, iss) to the agent.
  const landed = await fetch(callback);
  const response = (await landed.json()) as Record<string, string | null>;
  if (!response.code || !response.state) {
    throw new Error(`The callback page answered ${landed.status}: ${JSON.stringify(response)}`);
  }
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(response)) {
    if (value !== null) parameters.set(name, value);
  }
  const exchanged = await fetch(`${agentUrl}/authentication/callback?${parameters.toString()}`);
  if (exchanged.status !== 200) {
    throw new Error(`The agent's callback answered ${exchanged.status}: ${await exchanged.text()}`);
  }
  return (await exchanged.json()) as AgentLogin;
}

/**
 * Follows the provider's redirects as a browser does, keeping cookies in `jar`, until the callback
 * page `/oidc/callback`; a login form on the way is submitted with `credentials`.
 *
 * @throws Error when the redirects stop elsewhere or go round more than 8 times.
 */
export async function followToCallback(
  serverUrl: string,
  jar: CookieJar,
  response: Response,
  credentials: { email: string; password: string },
): Promise<URL> {
  let current = response;
  for (let hops = 0; hops < 8; hops += 1) {
    jar.store(current);
    const location = current.headers.get('location');
    if (!location) throw new Error(`Stopped at ${current.status}: ${await current.text()}`);
    const next = new URL(location, serverUrl);
    if (next.pathname === '/oidc/callback') return next;
    if (next.pathname.startsWith('/oidc/interaction/')) {
      const form = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.store(form);
      if (form.status === 200 && (await form.text()).includes('name="password"')) {
        current = await fetch(`${next}/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(credentials).toString(),
        });
        continue;
      }
      current = form;
      continue;
    }
    current = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
  }
  throw new Error('Too many redirects');
}

/**
 * The console's token request for `code` (client `canopy-console`, redirect URI
 * `<serverUrl>/oidc/callback`), with the browser's cookies when `cookie` is given.
 */
export function redeemConsoleCode(
  serverUrl: string,
  code: string,
  verifier: string,
  cookie?: string,
): Promise<Response> {
  return fetch(`${serverUrl}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie === undefined ? {} : { cookie }),
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: 'canopy-console',
      code,
      redirect_uri: `${serverUrl}/oidc/callback`,
      code_verifier: verifier,
    }).toString(),
  });
}
