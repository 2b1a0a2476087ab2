/** How a value is shown: per type, in the user's time zone and locale (issue: "values shown as people expect"). */
import { Anchor, Badge, Code, Group, Image, Popover, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconFile, IconX } from '@tabler/icons-react';
import { memo, useState, type ReactNode } from 'react';
import './table.css';
import './value.css';
import { Link } from 'react-router';
import { typeName, type SchemaField } from '../../protocol';
import { formatFieldValue, formatJsonInline, itemType, jsonShape, type JsonShape } from './format';

const ENUM_COLORS = [
  'teal',
  'blue',
  'grape',
  'orange',
  'cyan',
  'pink',
  'lime',
  'indigo',
  'yellow',
  'red',
];

function enumColor(value: string, enums: string[] | null | undefined): string {
  const index = enums?.indexOf(value) ?? -1;
  if (index >= 0) return ENUM_COLORS[index % ENUM_COLORS.length]!;
  let hash = 0;
  for (const char of value) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return ENUM_COLORS[Math.abs(hash) % ENUM_COLORS.length]!;
}

/** Wraps each occurrence of `search` (any case) in <mark>. */
export function Highlight({ text, search }: { text: string; search?: string }) {
  const needle = search?.trim().toLowerCase();
  if (!needle) return <>{text}</>;
  const parts: ReactNode[] = [];
  const lower = text.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/** A JSON value as nested structure: an object's keys and values, a list's items. */
function JsonView({ shape }: { shape: JsonShape }): ReactNode {
  switch (shape.kind) {
    case 'scalar':
      return shape.text;
    case 'list':
      if (shape.items.length === 0)
        return (
          <Text span c="dimmed" size="sm">
            Empty list
          </Text>
        );
      if (shape.items.every((item) => item.kind === 'scalar')) {
        return (
          <Group gap={4} data-testid="json-list">
            {shape.items.map((item, index) => (
              <Badge key={index} variant="outline" color="gray" tt="none" radius="sm">
                {item.text}
              </Badge>
            ))}
          </Group>
        );
      }
      return (
        <ol className="cv-json-list" data-testid="json-list">
          {shape.items.map((item, index) => (
            <li key={index}>
              <JsonView shape={item} />
            </li>
          ))}
        </ol>
      );
    case 'object':
      return (
        <dl className="cv-json-object" data-testid="json-object">
          {shape.entries.map(([key, item]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>
                <JsonView shape={item} />
              </dd>
            </div>
          ))}
        </dl>
      );
  }
}

function LongText({ text, search, limit }: { text: string; search?: string; limit: number }) {
  if (text.length <= limit) return <Highlight text={text} search={search} />;
  return (
    <Popover width={420} shadow="md" withArrow position="bottom-start">
      <Popover.Target>
        <UnstyledButton aria-label="Show the full text" style={{ textAlign: 'left' }}>
          <Text span size="sm">
            <Highlight text={`${text.slice(0, limit)}…`} search={search} />
          </Text>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>
          <Highlight text={text} search={search} />
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

function DataUri({ uri, compact }: { uri: string; compact: boolean }) {
  const mime = /^data:([^;,]+)/.exec(uri)?.[1] ?? 'application/octet-stream';
  if (mime.startsWith('image/')) {
    return (
      <Image src={uri} alt="Image" h={compact ? 28 : 160} w="auto" fit="contain" radius="sm" />
    );
  }
  return (
    <Anchor href={uri} download="file" size="sm">
      <Group gap={4} wrap="nowrap">
        <IconFile size={14} /> {mime}
      </Group>
    </Anchor>
  );
}

export interface ValueProps {
  field: SchemaField;
  value: unknown;
  search?: string;
  /** Table cells truncate more and show thumbnails. */
  compact?: boolean;
}

export function Value({ field, value, search, compact = false }: ValueProps): ReactNode {
  if (value === null || value === undefined || value === '') {
    return (
      <Text span c="dimmed" size="sm" aria-label="empty">
        —
      </Text>
    );
  }
  const type = typeName(field.type);
  if (typeof value === 'string' && value.startsWith('data:'))
    return <DataUri uri={value} compact={compact} />;
  switch (type) {
    case 'Boolean':
      return (
        <Group gap={4} wrap="nowrap">
          {value ? (
            <IconCheck size={16} color="var(--mantine-color-teal-6)" />
          ) : (
            <IconX size={16} color="var(--mantine-color-gray-6)" />
          )}
          <Text span size="sm">
            {value ? 'Yes' : 'No'}
          </Text>
        </Group>
      );
    case 'Number': {
      const text = formatFieldValue(field, value);
      return (
        <Text span size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Highlight text={text} search={search} />
        </Text>
      );
    }
    case 'Date':
      // A native title, not a Tooltip component: a page holds hundreds of these.
      return (
        <Text span size="sm" title={String(value)}>
          {formatFieldValue(field, value)}
        </Text>
      );
    case 'Dateonly':
    case 'Time':
      return (
        <Text span size="sm">
          {formatFieldValue(field, value)}
        </Text>
      );
    case 'Enum':
      return (
        <Badge
          variant="light"
          color={enumColor(String(value), field.enums)}
          tt="none"
          radius="sm"
          styles={{ root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } }}
        >
          <Highlight text={String(value)} search={search} />
        </Badge>
      );
    case 'Uuid':
      return (
        <Code title={String(value)}>
          {compact ? `${String(value).slice(0, 8)}…` : String(value)}
        </Code>
      );
    case 'Point':
      return (
        <Text span size="sm">
          {Array.isArray(value) ? `(${value.join(', ')})` : String(value)}
        </Text>
      );
    case 'Json':
    case 'Object':
    case 'Array': {
      if (compact) return <LongText text={formatFieldValue(field, value)} limit={40} />;
      if (typeof value !== 'object')
        return (
          <Text span size="sm">
            {String(value)}
          </Text>
        );
      const shape =
        type === 'Array' && itemType(field.type) !== 'Json'
          ? {
              kind: 'list' as const,
              items: (value as unknown[]).map((item) => ({
                kind: 'scalar' as const,
                text: formatFieldValue({ ...field, type: itemType(field.type) }, item),
              })),
            }
          : jsonShape(value);
      return (
        <div className="cv-json" style={{ maxHeight: 320, overflow: 'auto' }}>
          <JsonView shape={shape} />
        </div>
      );
    }
    default:
      return (
        <Text span size="sm">
          <LongText text={String(value)} search={search} limit={compact ? 60 : 2000} />
        </Text>
      );
  }
}

/** A to-one relation: a link to the related record, labelled with its label field. */
export function RelationLink({
  to,
  label,
  search,
}: {
  to: string;
  label: string;
  search?: string;
}) {
  return (
    <Anchor component={Link} to={to} size="sm" onClick={(event) => event.stopPropagation()}>
      <Highlight text={label} search={search} />
    </Anchor>
  );
}

// Table cells -------------------------------------------------------------------------------------
// A 100-row page holds ~1,000 cells: they are plain elements with CSS classes (table.css), no
// Mantine component, no per-cell formatter object, and a pop-over only once one is opened.

function CompactLongText({
  text,
  search,
  limit,
}: {
  text: string;
  search?: string;
  limit: number;
}) {
  const [open, setOpen] = useState(false);
  if (text.length <= limit) return <Highlight text={text} search={search} />;
  const target = (
    <button
      type="button"
      className="cv-more"
      aria-label="Show the full text"
      aria-expanded={open}
      onClick={(event) => {
        event.stopPropagation();
        setOpen((was) => !was);
      }}
    >
      <Highlight text={`${text.slice(0, limit)}…`} search={search} />
    </button>
  );
  if (!open) return target;
  return (
    <Popover
      opened
      onChange={setOpen}
      onClose={() => setOpen(false)}
      width={420}
      shadow="md"
      withArrow
      position="bottom-start"
    >
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown onClick={(event) => event.stopPropagation()}>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto' }}>
          <Highlight text={text} search={search} />
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

/** A value in a table cell: the same rules as {@link Value}, in light elements. */
export const CellValue = memo(function CellValue({
  field,
  value,
  search,
}: {
  field: SchemaField;
  value: unknown;
  search?: string;
}): ReactNode {
  if (value === null || value === undefined || value === '') {
    return (
      <span className="cv-dim" aria-label="empty">
        —
      </span>
    );
  }
  if (typeof value === 'string' && value.startsWith('data:'))
    return <DataUri uri={value} compact />;
  switch (typeName(field.type)) {
    case 'Boolean':
      return (
        <span className="cv-bool">
          {value ? (
            <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />
          ) : (
            <IconX size={16} color="var(--mantine-color-gray-6)" aria-hidden />
          )}
          {value ? 'Yes' : 'No'}
        </span>
      );
    case 'Number': {
      const text = formatFieldValue(field, value);
      return (
        <span className="cv-num">
          <Highlight text={text} search={search} />
        </span>
      );
    }
    case 'Date':
      return <span title={String(value)}>{formatFieldValue(field, value)}</span>;
    case 'Dateonly':
    case 'Time':
      return <span>{formatFieldValue(field, value)}</span>;
    case 'Enum': {
      const color = enumColor(String(value), field.enums);
      return (
        <span
          className="cv-badge"
          style={{
            background: `var(--mantine-color-${color}-light)`,
            color: `var(--mantine-color-${color}-light-color)`,
          }}
        >
          <Highlight text={String(value)} search={search} />
        </span>
      );
    }
    case 'Uuid':
      return (
        <code className="cv-code" title={String(value)}>
          {String(value).slice(0, 8)}…
        </code>
      );
    case 'Point':
      return <span>{Array.isArray(value) ? `(${value.join(', ')})` : String(value)}</span>;
    case 'Json':
    case 'Object':
      return <CompactLongText text={formatJsonInline(value)} limit={40} />;
    case 'Array':
      return <CompactLongText text={formatFieldValue(field, value)} search={search} limit={60} />;
    default:
      return <CompactLongText text={String(value)} search={search} limit={60} />;
  }
});

/** A to-one relation in a table cell: a plain link to the related record. */
export const CellRelationLink = memo(function CellRelationLink({
  to,
  label,
  search,
}: {
  to: string;
  label: string;
  search?: string;
}) {
  return (
    <Link className="cv-link" to={to} onClick={(event) => event.stopPropagation()}>
      <Highlight text={label} search={search} />
    </Link>
  );
});
