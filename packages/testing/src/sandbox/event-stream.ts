import type { Response } from 'express';

/** Server-sent events to the agents subscribed with one env secret (platform protocol 7). */
export class EventStream {
  private readonly clients = new Set<Response>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(heartbeatMs: number) {
    this.heartbeat = setInterval(() => this.send('heartbeat', '{}'), heartbeatMs);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.clients.size;
  }

  subscribe(response: Response): void {
    response.status(200).set({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    });
    response.flushHeaders();
    response.write('event: heartbeat\ndata: {}\n\n');
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  send(event: string, data: string): void {
    for (const client of this.clients) client.write(`event: ${event}\ndata: ${data}\n\n`);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}
