/**
 * What the `file` and `map-point` display widgets make of a value (public API §7), pure; drawn by
 * MoreWidgetCell.tsx, which loads with the first such cell. `undefined`: not a file or not a
 * point, and the cell shows the value as it does without a widget.
 */
import type { LayoutWidget } from '@canopy/platform-protocol';
import { addressRules, toNumber } from './widget-format';

const { safeDownload, safeImage } = addressRules;

/** One file of a `file` widget: its name, its size (data URIs), where to get it, a thumbnail. */
export interface FileView {
  name: string;
  /** `12.3 kB`, for a data URI; undefined for an address. */
  size?: string;
  href: string;
  /** Saved with `download` (a data URI), rather than opened in a new tab. */
  download: boolean;
  /** An image the browser can show as a thumbnail. */
  thumbnail?: string;
}

/** A latitude and longitude within their ranges, or null. */
function latLng(lat: unknown, lng: unknown): { lat: number; lng: number } | null {
  const a = toNumber(lat);
  const b = toNumber(lng);
  if (a === null || b === null || Math.abs(a) > 90 || Math.abs(b) > 180) return null;
  return { lat: a, lng: b };
}

/**
 * A point from a GeoJSON point (`coordinates: [lng, lat]`), `{lat, lng}`, `{latitude,
 * longitude}`, or `"lat,lng"` text; null for anything else (or out of range).
 */
export function readPoint(value: unknown): { lat: number; lng: number } | null {
  if (typeof value === 'string') {
    const parts = value.split(',').map((part) => part.trim());
    return parts.length === 2 && parts.every((part) => /^[-+]?\d+(\.\d+)?$/.test(part))
      ? latLng(parts[0], parts[1])
      : null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const point = value as Record<string, unknown>;
  if (point.type === 'Point' && Array.isArray(point.coordinates)) {
    return latLng(point.coordinates[1], point.coordinates[0]);
  }
  if ('lat' in point) return latLng(point.lat, point.lng ?? point.lon);
  if ('latitude' in point) return latLng(point.latitude, point.longitude);
  return null;
}

const RASTER_TYPE = /^image\/(png|jpe?g|gif|webp|avif)$/i;
const RASTER_NAME = /\.(png|jpe?g|gif|webp|avif)$/i;

/** `1.2 kB`: a size in bytes, in decimal units. */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB'];
  let size = bytes / 1000;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${size < 10 ? size.toFixed(1) : Math.round(size)} ${units[unit]}`;
}

/**
 * A file value: an address (its name is the last part of its path) or a data URI (its `name=`
 * parameter, as the Console's uploads write it, else `file`; its size from the base64 length).
 * Undefined when it may not be linked (safe-url.ts).
 */
export function fileView(value: unknown): FileView | undefined {
  const href = safeDownload(value);
  if (!href) return undefined;
  if (/^data:/i.test(href)) {
    const comma = href.indexOf(',');
    const header = href.slice(5, comma).split(';');
    const type = header[0] ?? '';
    const named = header.find((part) => /^name=/i.test(part));
    const data = href.slice(comma + 1);
    const base64 = header.some((part) => part.toLowerCase() === 'base64');
    const bytes = base64
      ? Math.floor((data.replace(/\s/g, '').length * 3) / 4) - (data.match(/=*$/)?.[0].length ?? 0)
      : decodeURIComponentSafe(data).length;
    let name = 'file';
    if (named) name = decodeURIComponentSafe(named.slice(5)) || 'file';
    return {
      name,
      size: byteSize(Math.max(0, bytes)),
      href,
      download: true,
      ...(RASTER_TYPE.test(type) && safeImage(href) ? { thumbnail: href } : {}),
    };
  }
  let name = href;
  try {
    const path = new URL(href).pathname;
    name = decodeURIComponentSafe(path.slice(path.lastIndexOf('/') + 1)) || new URL(href).host;
  } catch {
    // safeDownload accepted it: it parses.
  }
  return {
    name,
    href,
    download: false,
    ...(RASTER_NAME.test(name) ? { thumbnail: href } : {}),
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The files of a `file` widget's value (one, or a list), those that may be linked. */
export function filesView(value: unknown): FileView[] | undefined {
  const files = (Array.isArray(value) ? value : [value])
    .map(fileView)
    .filter((file): file is FileView => file !== undefined);
  return files.length > 0 ? files : undefined;
}

/** A point as coordinates, and its place on openstreetmap.org at the widget's zoom. */
export function mapPointView(
  widget: LayoutWidget,
  value: unknown,
): { text: string; href: string } | undefined {
  const point = readPoint(value);
  if (!point) return undefined;
  const held = widget.settings?.zoom;
  const zoom = typeof held === 'number' && held >= 1 ? Math.min(19, Math.round(held)) : 15;
  const at = (n: number) => String(Number(n.toFixed(6)));
  const [lat, lng] = [at(point.lat), at(point.lng)];
  return {
    text: `${lat}, ${lng}`,
    href: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=${zoom}/${lat}/${lng}`,
  };
}
