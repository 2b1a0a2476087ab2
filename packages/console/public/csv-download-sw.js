/*
 * Canopy Console: streamed CSV downloads. The console tab hands this worker a one-time ticket
 * (the agent's CSV URL and the session token) by message, then navigates a hidden frame to
 * `<base>__canopy/download/<ticket>/<file name>`. The worker answers that navigation with the
 * agent's response body as it arrives, as an attachment: the browser writes it to disk while it
 * streams, and nothing is held in memory. Tickets expire after a minute and are used once.
 */
/* global self */
const tickets = new Map();
const TICKET_TTL_MS = 60_000;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'canopy-csv-ticket' || typeof data.id !== 'string') return;
  tickets.set(data.id, { ...data, clientId: event.source && event.source.id, at: Date.now() });
  for (const [id, ticket] of tickets)
    if (Date.now() - ticket.at > TICKET_TTL_MS) tickets.delete(id);
  if (event.ports[0]) event.ports[0].postMessage({ ok: true });
});

async function tell(ticket, message) {
  const client = ticket.clientId && (await self.clients.get(ticket.clientId));
  if (client) client.postMessage({ type: 'canopy-csv-status', id: ticket.id, ...message });
}

const marker = '/__canopy/download/';

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const at = url.pathname.indexOf(marker);
  if (url.origin !== self.location.origin || at < 0) return;
  const id = url.pathname.slice(at + marker.length).split('/')[0];
  const ticket = tickets.get(id);
  tickets.delete(id);
  if (!ticket) {
    event.respondWith(
      new Response('This download link is used or expired: export again from the console.', {
        status: 410,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
    );
    return;
  }
  event.respondWith(
    (async () => {
      let upstream;
      try {
        upstream = await fetch(ticket.url, {
          headers: { authorization: `Bearer ${ticket.token}`, accept: 'text/csv' },
          credentials: 'omit',
        });
      } catch (error) {
        await tell(ticket, { error: `The agent could not be reached: ${error.message}` });
        return new Response(null, { status: 204 });
      }
      if (!upstream.ok || !upstream.body) {
        let message = `The agent answered ${upstream.status}.`;
        try {
          const body = await upstream.json();
          message = (body.errors && body.errors[0] && body.errors[0].detail) || message;
        } catch {
          // Not JSON: keep the status.
        }
        await tell(ticket, { error: message, status: upstream.status });
        // No content: the frame's navigation ends without a download.
        return new Response(null, { status: 204 });
      }
      let bytes = 0;
      let reported = 0;
      const counted = upstream.body.pipeThrough(
        new TransformStream({
          transform(chunk, controller) {
            bytes += chunk.byteLength;
            if (bytes - reported > 256 * 1024) {
              reported = bytes;
              void tell(ticket, { progress: bytes });
            }
            controller.enqueue(chunk);
          },
          flush() {
            void tell(ticket, { done: bytes });
          },
        }),
      );
      const name = ticket.filename.replace(/["\\\r\n]/g, '_');
      return new Response(counted, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(ticket.filename)}`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    })(),
  );
});
