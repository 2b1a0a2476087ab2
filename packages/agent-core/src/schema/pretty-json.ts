const WIDTH = 100;

/**
 * JSON pretty-printed the way the schema file is (protocol §13.1): two-space indentation, with
 * every object or array that fits in 100 characters (indentation included) kept on one line as
 * `{ "a": 1, "b": [1, 2] }`. Ends with a newline.
 */
export function prettyJson(value: unknown): string {
  return `${render(value, '', '')}\n`;
}

function render(value: unknown, indent: string, lead: string): string {
  const inline = renderInline(value);
  if (!isContainer(value) || indent.length + lead.length + inline.length <= WIDTH) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value.map((item) => `${inner}${render(item, inner, '')}`);
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .map(([key, item]) => {
      const prefix = `${JSON.stringify(key)}: `;
      return `${inner}${prefix}${render(item, inner, prefix)}`;
    });
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

function renderInline(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[${value.map(renderInline).join(', ')}]`;
  }
  if (isContainer(value)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, item]) => item !== undefined,
    );
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${renderInline(item)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isContainer(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Date) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}
