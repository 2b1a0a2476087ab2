import { describe, expect, it } from 'vitest';
import { safeDownload, safeImage, safeLink } from './safe-url';

describe('the addresses the Console follows (safe-url.ts)', () => {
  it('links web addresses, and mail, phone and fragments only where asked', () => {
    expect(safeLink(' https://shop.example/a?b=1 ')).toBe('https://shop.example/a?b=1');
    expect(safeLink('HTTP://shop.example')).toBe('HTTP://shop.example');
    expect(safeLink('mailto:ann@shop.example')).toBeUndefined();
    expect(safeLink('mailto:ann@shop.example', { mail: true })).toBe('mailto:ann@shop.example');
    expect(safeLink('tel:+33123', { phone: true })).toBe('tel:+33123');
    expect(safeLink('tel:+33123', { mail: true })).toBeUndefined();
    expect(safeLink('#notes')).toBeUndefined();
    expect(safeLink('#notes', { fragment: true })).toBe('#notes');
  });

  it('never links scripts, HTML data, relative paths or other values', () => {
    const all = { mail: true, phone: true, fragment: true };
    for (const address of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/png;base64,AAAA',
      '/Shop/Production/settings',
      '//evil.example',
      'file:///etc/passwd',
      '',
    ]) {
      expect(safeLink(address, all), address).toBeUndefined();
    }
    expect(safeLink(42)).toBeUndefined();
    expect(safeLink(null)).toBeUndefined();
  });

  it('shows web images and inline raster images, never SVG nor HTML', () => {
    expect(safeImage('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    expect(safeImage('data:image/png;base64,iVBORw0KGgo=')).toBe(
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(safeImage('data:image/jpeg;name=a.jpg;base64,/9j/')).toBe(
      'data:image/jpeg;name=a.jpg;base64,/9j/',
    );
    for (const address of [
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html;base64,PHNjcmlwdD4=',
      'javascript:alert(1)',
      'mailto:a@b.c',
      'data:image/png,raw',
    ]) {
      expect(safeImage(address), address).toBeUndefined();
    }
  });

  it('downloads web files and data URIs, except types a browser would run', () => {
    expect(safeDownload('https://files.example/report.pdf')).toBe(
      'https://files.example/report.pdf',
    );
    expect(safeDownload('data:application/pdf;name=a.pdf;base64,JVBE')).toBe(
      'data:application/pdf;name=a.pdf;base64,JVBE',
    );
    expect(safeDownload('data:,plain text')).toBe('data:,plain text');
    for (const address of [
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:TEXT/HTML,<script>',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:application/xhtml+xml,<x/>',
      'data:text/javascript,alert(1)',
      'data:application/pdf',
      'javascript:alert(1)',
    ]) {
      expect(safeDownload(address), address).toBeUndefined();
    }
  });
});
