import { describe, expect, it } from 'vitest';
import { byteSize, filesView, fileView, mapPointView, readPoint } from './more-widgets';
import { widgetView } from './widget-format';

const context = { locale: 'en-US', timeZone: 'UTC', now: Date.parse('2026-11-28T12:00:00Z') };
const view = (type: string, value: unknown, settings?: Record<string, unknown>) =>
  widgetView({ type: type as 'file', settings }, value, {}, context);

describe('the rich-text, file and map-point widgets', () => {
  it('hands them to the cell loaded with the first of them; rich text must be text', () => {
    expect(view('rich-text', '<p>Hi <b>there</b></p>')).toEqual({
      kind: 'more',
      widget: { type: 'rich-text' },
      value: '<p>Hi <b>there</b></p>',
    });
    expect(view('rich-text', 42)).toBeUndefined();
    expect(view('file', 'https://x.example/a.pdf')).toMatchObject({ kind: 'more' });
    expect(view('map-point', '1,2')).toMatchObject({ kind: 'more' });
  });

  it('names a data URI file, says its size and downloads it; shows an image as a thumbnail', () => {
    // "hello" is 5 bytes, `aGVsbG8=` in base64.
    expect(fileView('data:text/plain;name=notes%20v2.txt;base64,aGVsbG8=')).toEqual({
      name: 'notes v2.txt',
      size: '5 B',
      href: 'data:text/plain;name=notes%20v2.txt;base64,aGVsbG8=',
      download: true,
    });
    const png = `data:image/png;base64,${'A'.repeat(4000)}`;
    expect(fileView(png)).toMatchObject({ name: 'file', size: '3.0 kB', thumbnail: png });
    expect(fileView('https://files.example/a/Report%202026.pdf?x=1')).toEqual({
      name: 'Report 2026.pdf',
      href: 'https://files.example/a/Report%202026.pdf?x=1',
      download: false,
    });
    expect(fileView('https://cdn.example/p/photo.JPG')?.thumbnail).toBe(
      'https://cdn.example/p/photo.JPG',
    );
    expect(filesView(['https://x.example/a.pdf', 'javascript:alert(1)'])).toEqual([
      { name: 'a.pdf', href: 'https://x.example/a.pdf', download: false },
    ]);
    expect(filesView('data:text/html;base64,PHNjcmlwdD4=')).toBeUndefined();
    expect(filesView('not a file')).toBeUndefined();
    expect([byteSize(999), byteSize(1000), byteSize(25_400_000)]).toEqual([
      '999 B',
      '1.0 kB',
      '25 MB',
    ]);
  });

  it('reads points in their usual shapes and links them to OpenStreetMap', () => {
    const eiffel = { lat: 48.85837, lng: 2.294481 };
    expect(readPoint({ type: 'Point', coordinates: [2.294481, 48.85837] })).toEqual(eiffel);
    expect(readPoint({ latitude: '48.85837', longitude: 2.294481 })).toEqual(eiffel);
    expect(readPoint(' 48.85837 , 2.294481')).toEqual(eiffel);
    expect(readPoint({ lat: 91, lng: 0 })).toBeNull();
    expect(readPoint('Paris')).toBeNull();
    expect(mapPointView({ type: 'map-point', settings: { zoom: 12 } }, eiffel)).toEqual({
      text: '48.85837, 2.294481',
      href: 'https://www.openstreetmap.org/?mlat=48.85837&mlon=2.294481#map=12/48.85837/2.294481',
    });
    // Anything else is today's cell: the value as text.
    expect(mapPointView({ type: 'map-point' }, 'somewhere')).toBeUndefined();
    expect(mapPointView({ type: 'map-point' }, { x: 1 })).toBeUndefined();
    expect(mapPointView({ type: 'map-point', settings: { zoom: 20 } }, '1,2')?.href).toBe(
      'https://www.openstreetmap.org/?mlat=1&mlon=2#map=19/1/2',
    );
  });

  it('keeps links and images to the allowed addresses (safe-url.ts)', () => {
    expect(view('url', 'javascript:alert(1)')).toBeUndefined();
    expect(view('image', 'data:image/svg+xml;base64,PHN2Zz4=')).toBeUndefined();
    const link = (urlTemplate: string, record: Record<string, unknown>) =>
      widgetView({ type: 'link', settings: { urlTemplate } }, 'x', record, context);
    expect(link('javascript:{{id}}', { id: 1 })).toBeUndefined();
    expect(link('mailto:{{email}}', { email: 'a@b.c' })).toMatchObject({
      kind: 'link',
      href: 'mailto:a%40b.c',
    });
  });
});
