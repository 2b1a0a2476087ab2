/**
 * The one place that decides which addresses from an agent's data (a record's value, a link
 * template filled with one, a markdown link) may become a link, an image or a download in the
 * Console. Everything else is shown as text, never followed: `javascript:`, `vbscript:`,
 * `data:text/html`, SVG (which may carry script), relative paths into the Console itself.
 *
 * - links: `http(s)` only, plus `mailto:` / `tel:` for the widgets that make them, and `#…`
 *   fragments for markdown;
 * - images: `http(s)`, or a base64 `data:` URI of a raster image type (PNG, JPEG, GIF, WebP,
 *   AVIF);
 * - downloads (the file widget): `http(s)`, or a `data:` URI of any type but those a browser
 *   would run (HTML, XHTML, SVG, XML, JavaScript), always saved with `download`, never opened.
 *
 * Addresses are read as the browser will read them (`URL`, which drops tabs and line breaks
 * inside the scheme), so `java\tscript:` is refused like `javascript:`.
 */

export interface LinkOptions {
  /** `mailto:` addresses (the email widget, markdown). */
  mail?: boolean;
  /** `tel:` numbers (the phone widget). */
  phone?: boolean;
  /** `#fragment` links within the page (markdown). */
  fragment?: boolean;
}

const RASTER_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif)(;[a-z0-9=._+-]+)*;base64,/i;
const SCRIPTABLE_TYPE =
  /^data:(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/(x-)?javascript|text\/ecmascript)\s*[;,]/i;

/** The scheme of an absolute address as a browser reads it (`https:`), or undefined. */
function schemeOf(address: string): string | undefined {
  try {
    return new URL(address).protocol.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `value` as a link target, or undefined when it may not be one. */
export function safeLink(value: unknown, options: LinkOptions = {}): string | undefined {
  if (typeof value !== 'string') return undefined;
  const address = value.trim();
  if (address === '') return undefined;
  if (options.fragment && /^#[^\s]*$/.test(address)) return address;
  const scheme = schemeOf(address);
  if (scheme === 'http:' || scheme === 'https:') return address;
  if (scheme === 'mailto:' && options.mail) return address;
  if (scheme === 'tel:' && options.phone) return address;
  return undefined;
}

/** `value` as an image source, or undefined when it may not be one. */
export function safeImage(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const address = value.trim();
  if (RASTER_IMAGE.test(address)) return address;
  const scheme = schemeOf(address);
  return scheme === 'http:' || scheme === 'https:' ? address : undefined;
}

/** `value` as the address of a file to download, or undefined when it may not be one. */
export function safeDownload(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const address = value.trim();
  if (/^data:/i.test(address)) {
    return /^data:[^,]*,/i.test(address) && !SCRIPTABLE_TYPE.test(address) ? address : undefined;
  }
  return safeLink(address);
}
