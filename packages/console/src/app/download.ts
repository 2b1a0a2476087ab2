/**
 * Streamed CSV downloads through the service worker `csv-download-sw.js` (see its header): the
 * agent's CSV body goes to disk as it arrives, with the `Authorization` header the agent requires
 * (a plain link cannot carry it). Works with any agent that speaks the protocol. Where service
 * workers are unavailable (a non-secure origin other than localhost, or a private window that
 * blocks them), the export is read into memory and saved from there.
 */
const SCOPE = `${import.meta.env.BASE_URL}__canopy/download/`;
const SCRIPT = `${import.meta.env.BASE_URL}csv-download-sw.js`;

let registration: Promise<ServiceWorker | undefined> | undefined;

async function activeWorker(): Promise<ServiceWorker | undefined> {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return undefined;
  const reg = await navigator.serviceWorker.register(SCRIPT, { scope: SCOPE });
  const worker = reg.active ?? reg.installing ?? reg.waiting;
  if (!worker) return undefined;
  if (worker.state === 'activated') return worker;
  await new Promise<void>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new Error('service worker timeout')), 10_000);
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') {
        window.clearTimeout(timer);
        resolve();
      }
      if (worker.state === 'redundant') {
        window.clearTimeout(timer);
        reject(new Error('service worker redundant'));
      }
    });
  });
  return worker;
}

/** The download worker, registered once per page; undefined when streaming is unavailable. */
export function downloadWorker(): Promise<ServiceWorker | undefined> {
  registration ??= activeWorker().catch(() => undefined);
  return registration;
}

export interface StreamedDownload {
  /** Resolves with the bytes written once the whole file went through. */
  done: Promise<number>;
}

/**
 * Starts a streamed download of `url` (an agent CSV route) as `filename`; `onProgress` gets the
 * bytes so far. Rejects with the agent's message (and `status`) if it refused.
 */
export async function streamDownload(
  worker: ServiceWorker,
  input: { url: string; token: string; filename: string; onProgress?(bytes: number): void },
): Promise<number> {
  const id = crypto.randomUUID();
  await new Promise<void>((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = window.setTimeout(
      () => reject(new Error('The download worker did not answer.')),
      5000,
    );
    channel.port1.onmessage = () => {
      window.clearTimeout(timer);
      resolve();
    };
    worker.postMessage(
      {
        type: 'canopy-csv-ticket',
        id,
        url: input.url,
        token: input.token,
        filename: input.filename,
      },
      [channel.port2],
    );
  });
  const result = new Promise<number>((resolve, reject) => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as {
        type?: string;
        id?: string;
        progress?: number;
        done?: number;
        error?: string;
        status?: number;
      };
      if (data?.type !== 'canopy-csv-status' || data.id !== id) return;
      if (data.progress !== undefined) input.onProgress?.(data.progress);
      if (data.done === undefined && data.error === undefined) return;
      navigator.serviceWorker.removeEventListener('message', onMessage);
      frame.remove();
      if (data.error !== undefined) {
        reject(Object.assign(new Error(data.error), { status: data.status }));
      } else resolve(data.done!);
    };
    navigator.serviceWorker.addEventListener('message', onMessage);
    navigator.serviceWorker.startMessages();
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.title = 'download';
    frame.src = `${SCOPE}${id}/${encodeURIComponent(input.filename)}`;
    document.body.append(frame);
  });
  return result;
}
