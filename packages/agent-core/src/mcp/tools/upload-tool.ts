import { z } from 'zod';

import { type ToolContext, ToolError } from './tool-context';
import { defineTool } from './tool-definition';
import { isUploadHandle } from './upload-store';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Who owns an upload: the user and the rendering of the access token. */
export function uploadOwner(context: ToolContext): string {
  return `${context.claims.id}:${context.claims.renderingId}`;
}

/**
 * Replaces the upload handles of form values (a File field's value, or items of a FileList) by
 * the data URIs the agent's action routes take.
 *
 * @throws ToolError when a handle is unknown, expired or another user's.
 */
export function resolveUploadHandles(
  context: ToolContext,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const resolve = (value: unknown): unknown => {
    if (!isUploadHandle(value)) return value;
    const file = context.uploads.get(uploadOwner(context), value);
    if (!file) {
      throw new ToolError(
        `Unknown or expired file handle "${value}": upload the file again with uploadActionFile.`,
      );
    }
    return `data:${file.mimeType};name=${encodeURIComponent(file.name)};base64,${file.content.toString('base64')}`;
  };
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map(resolve) : resolve(value),
    ]),
  );
}

/**
 * `uploadActionFile`: keeps a base64 file for the caller and returns a handle to pass as the
 * value of an action's File field (or inside a FileList) to getActionForm and executeAction.
 */
export const uploadActionFileTool = defineTool({
  name: 'uploadActionFile',
  description:
    "Upload a file for an action's File or FileList field. Returns a fileHandle: pass it as the " +
    "field's value (or as an item of a FileList) in getActionForm and executeAction. Handles " +
    'expire after 15 minutes and only work for the user who uploaded them.',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  scope: 'mcp:action',
  input: () => ({
    fileName: z.string().min(1).max(255).describe('Name of the file, e.g. "invoice.pdf"'),
    mimeType: z
      .string()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type such as "application/pdf"')
      .describe('MIME type, e.g. "application/pdf"'),
    contentBase64: z.string().describe('The content of the file, base64-encoded'),
  }),
  async run(input, context) {
    const content = input.contentBase64.replace(/\s+/g, '');
    if (!BASE64.test(content) || content.length % 4 === 1) {
      throw new ToolError('contentBase64 is not valid base64 (A-Z, a-z, 0-9, "+", "/", "=").');
    }
    const size = Math.floor((content.length * 3) / 4) - (content.match(/=+$/)?.[0].length ?? 0);
    if (size > context.maxUploadBytes) {
      throw new ToolError(
        `The file is ${size} bytes; files of at most ${context.maxUploadBytes} bytes are accepted.`,
      );
    }
    const buffer = Buffer.from(content, 'base64');
    const { handle, expiresAt } = context.uploads.put(uploadOwner(context), {
      name: input.fileName,
      mimeType: input.mimeType,
      content: buffer,
    });
    return {
      fileHandle: handle,
      fileName: input.fileName,
      mimeType: input.mimeType,
      size: buffer.length,
      expiresAt: expiresAt.toISOString(),
    };
  },
});
