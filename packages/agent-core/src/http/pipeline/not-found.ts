import type { RequestHandler } from 'express';

/** Unknown path or method under the mount point, once authenticated (§1.5): plain-text 404. */
export function notFound(): RequestHandler {
  return (_request, response) => {
    response.status(404).type('text/plain').send('Not Found');
  };
}
