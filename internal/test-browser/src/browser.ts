/**
 * What tests need of a browser to walk the server's HTML pages (OIDC login, device verification):
 * a cookie jar, the forms on a page, and GETs and form POSTs that keep cookies and do not follow
 * redirects. Shared by admin-api-server's tests and cloud-cli's end-to-end test.
 */

/** A browser's cookie jar, enough for the OIDC provider's interaction and session cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
  }
}

const unescapeHtml = (text: string) =>
  text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The action and hidden inputs of the page's form; throws when the page has none. */
export function readForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form on the page: ${html}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)) {
    fields[match[1]!] = unescapeHtml(match[2]!);
  }
  return { action: unescapeHtml(action), fields };
}

/** One page as the browser received it. */
export interface Page {
  status: number;
  location: string | null;
  html: string;
}

/** A browser: GETs and form POSTs with cookies, redirects not followed, relative to `base`. */
export function browser(base: string): {
  get(target: string): Promise<Page>;
  post(target: string, form: Record<string, string>): Promise<Page>;
} {
  const jar = new CookieJar();
  const call = async (target: string, form?: Record<string, string>): Promise<Page> => {
    const response = await fetch(new URL(target, base), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    jar.store(response);
    return {
      status: response.status,
      location: response.headers.get('location'),
      html: await response.text(),
    };
  };
  return { get: (target) => call(target), post: call };
}
