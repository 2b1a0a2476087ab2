/** What the console does with the results that leave the dialog: files and webhooks (§9.6). */

/** Saves a file result through a temporary object URL and a download link. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Performs the call a webhook result asks for, from the browser; resolves to its status. */
export async function callWebhook(webhook: {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}): Promise<number> {
  const url = new URL(webhook.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`The webhook URL ${webhook.url} is not http(s).`);
  }
  const method = webhook.method.toUpperCase();
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...webhook.headers },
    body: method === 'GET' || method === 'HEAD' ? undefined : JSON.stringify(webhook.body ?? null),
  });
  return response.status;
}
