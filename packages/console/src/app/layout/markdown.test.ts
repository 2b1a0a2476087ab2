// @vitest-environment happy-dom
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { decodeEntities, markdownElements } from './Markdown';

const html = (source: string) =>
  renderToStaticMarkup(createElement(Fragment, null, markdownElements(source)));

describe('the markdown widget', () => {
  it('renders emphasis, code, lists and web links', () => {
    const out = html('**bold** _it_ `a<b` [site](https://shop.example)\n\n- one\n- two');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<em>it</em>');
    expect(out).toContain('<code>a&lt;b</code>');
    expect(out).toContain('href="https://shop.example"');
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
  });

  it('keeps no raw HTML nor unsafe address that could run', () => {
    const out = html(
      '**x** [x](javascript:alert(1)) <img src=x onerror="alert(1)"><script>alert(1)</script> ![p](javascript:1)',
    );
    expect(out).toContain('<strong>x</strong>');
    expect(out).not.toMatch(/onerror|<script|<img|javascript:/i);
    // The link stays as text, without an address.
    expect(out).toMatch(/<a [^>]*>x<\/a>/);
    expect(out).not.toMatch(/<a [^>]*href/);
  });

  it('reads character references and escapes as text', () => {
    expect(html('Fish &amp; chips &#169; \\*not em\\*')).toBe('<p>Fish &amp; chips © *not em*</p>');
    expect(decodeEntities('&lt;b&gt; &#x2014; &unknown;')).toBe('<b> — &unknown;');
  });
});
