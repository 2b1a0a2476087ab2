/**
 * The markdown widget: `marked`'s lexer reads the source, and its tokens become React elements
 * directly. No HTML string is ever built, so there is nothing to sanitize: raw HTML in the source
 * is dropped, text is text (React escapes it), and links and images keep web and mail addresses
 * only (safe-url.ts). A table page holds a hundred of these cells: parsing to tokens and creating elements is a
 * fraction of building HTML, then parsing it again in DOMPurify and in the page. Loaded lazily by
 * WidgetCell.tsx.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { Fragment, memo, useMemo, type ReactNode } from 'react';
import { addressRules } from './widget-format';

const { safeImage, safeLink } = addressRules;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Character references in text (`&amp;`, `&#39;`, `&#x2014;`), as markdown reads them. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function children(tokens: Token[] | undefined, fallback: string): ReactNode {
  return tokens ? tokens.map(element) : decodeEntities(fallback);
}

/** One token as a React element (keyed by its position among its siblings). */
function element(token: Token, index: number): ReactNode {
  switch (token.type) {
    case 'paragraph':
      return <p key={index}>{children(token.tokens, token.text)}</p>;
    case 'heading': {
      const Heading = `h${Math.min(Math.max((token as Tokens.Heading).depth, 1), 6)}` as 'h1';
      return <Heading key={index}>{children(token.tokens, token.text)}</Heading>;
    }
    case 'text':
      return <Fragment key={index}>{children(token.tokens, token.text)}</Fragment>;
    case 'escape':
      return <Fragment key={index}>{token.text}</Fragment>;
    case 'strong':
      return <strong key={index}>{children(token.tokens, token.text)}</strong>;
    case 'em':
      return <em key={index}>{children(token.tokens, token.text)}</em>;
    case 'del':
      return <del key={index}>{children(token.tokens, token.text)}</del>;
    case 'codespan':
      return <code key={index}>{decodeEntities(token.text)}</code>;
    case 'code':
      return (
        <pre key={index}>
          <code>{token.text}</code>
        </pre>
      );
    case 'br':
      return <br key={index} />;
    case 'hr':
      return <hr key={index} />;
    case 'blockquote':
      return <blockquote key={index}>{children(token.tokens, token.text)}</blockquote>;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, i) => (
        <li key={i}>{children(item.tokens, item.text)}</li>
      ));
      return list.ordered ? (
        <ol key={index} start={typeof list.start === 'number' ? list.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={index}>{items}</ul>
      );
    }
    case 'checkbox':
      return <input key={index} type="checkbox" checked={token.checked} disabled readOnly />;
    case 'link': {
      const href = safeLink(token.href, { mail: true, fragment: true });
      return (
        <a
          key={index}
          href={href}
          target={href?.startsWith('#') ? undefined : '_blank'}
          rel="noopener noreferrer"
          onClick={(event) => event.stopPropagation()}
        >
          {children(token.tokens, token.text)}
        </a>
      );
    }
    case 'image': {
      const src = safeImage(token.href);
      return src ? (
        <img key={index} src={src} alt={token.text} loading="lazy" referrerPolicy="no-referrer" />
      ) : (
        <Fragment key={index}>{decodeEntities(token.text)}</Fragment>
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      return (
        <table key={index}>
          <thead>
            <tr>
              {table.header.map((cell, i) => (
                <th key={i}>{children(cell.tokens, cell.text)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i}>{children(cell.tokens, cell.text)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    // Raw HTML is dropped; link definitions and blank lines show nothing.
    case 'html':
    case 'def':
    case 'space':
      return null;
    default:
      return 'text' in token && typeof token.text === 'string' ? (
        <Fragment key={index}>{decodeEntities(token.text)}</Fragment>
      ) : null;
  }
}

const lexerOptions = { gfm: true, breaks: true } as const;

/** Markdown source as React elements (see the module's comment). */
export function markdownElements(source: string): ReactNode {
  return Lexer.lex(source, lexerOptions).map(element);
}

function Markdown({ source }: { source: string }) {
  const content = useMemo(() => markdownElements(source), [source]);
  return <div className="lw-markdown">{content}</div>;
}

export default memo(Markdown);
