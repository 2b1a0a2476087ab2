import { ValidationError } from '../../toolkit/errors/canopy-error';

/** A file of an action form, as form code sees it. */
export interface FormFile {
  mimeType: string;
  buffer: Buffer;
  name: string;
  charset?: string;
}

/**
 * Decodes a data URI of a File field (§9.2 step 5): `data:<mime>;name=<url-encoded>;base64,…`.
 * Only base64 payloads are accepted.
 */
export function decodeDataUri(value: string): FormFile {
  const comma = value.indexOf(',');
  if (!value.startsWith('data:') || comma < 0) {
    throw new ValidationError(`Expected a file as a data URI "data:<mime>;base64,<payload>"`);
  }
  const [mimeType = '', ...parameters] = value.slice(5, comma).split(';');
  if (parameters.at(-1) !== 'base64') {
    throw new ValidationError('Expected a base64 data URI for a file ("...;base64,<payload>")');
  }
  const file: FormFile = {
    mimeType: mimeType || 'application/octet-stream',
    buffer: Buffer.from(value.slice(comma + 1), 'base64'),
    name: 'file',
  };
  for (const parameter of parameters.slice(0, -1)) {
    const [key, raw = ''] = parameter.split('=');
    const decoded = safeDecode(raw);
    if (key === 'name') file.name = decoded;
    if (key === 'charset') file.charset = decoded;
  }
  return file;
}

/** Encodes a form file back to a data URI for the front end. */
export function encodeDataUri(file: FormFile): string {
  return `data:${file.mimeType};name=${encodeURIComponent(file.name)};base64,${file.buffer.toString('base64')}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Whether a value looks like a decoded form file. */
export function isFormFile(value: unknown): value is FormFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    Buffer.isBuffer((value as FormFile).buffer) &&
    typeof (value as FormFile).mimeType === 'string'
  );
}
