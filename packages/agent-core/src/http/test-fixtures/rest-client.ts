/** A JSON answer of the agent: its status, headers and parsed body (`undefined` when empty). */
export interface RestAnswer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of many shapes
  body: any;
}

/**
 * Calls the REST routes of an agent under `/forest` as the holder of `bearer`, with the
 * `timezone` every data route requires; `headers` add to (or replace) the defaults.
 */
export function restClient(base: () => string, bearer: string) {
  return async (
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<RestAnswer> => {
    const url = `${base()}/forest${path}${path.includes('?') ? '&' : '?'}timezone=UTC`;
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
  };
}
