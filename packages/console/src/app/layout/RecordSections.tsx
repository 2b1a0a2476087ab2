/**
 * A tab of fields on a record page: its sections (a titled box each), every field with its label
 * and value — a to-one relation as a link to the related record, a value with the display widget
 * of the team's layout when it gives one (WidgetCell.tsx), else today's value.
 */
import { Stack, Text } from '@mantine/core';
import type { CollectionLayout, LayoutSection } from '@canopy/platform-protocol';
import {
  humanize,
  isToOne,
  labelField,
  targetCollection,
  type SchemaCollection,
} from '../../protocol';
import type { AgentRecord } from '../../protocol';
import { RelationLink, Value } from '../components/Value';
import { collectionOf, useDataBase, useSchema } from '../data';
import { SectionBox } from './SectionBox';
import { WidgetCell } from './WidgetCell';
import { recordPath } from '../data-paths';

function FieldValue({
  collection,
  field: name,
  data,
  own,
}: {
  collection: SchemaCollection;
  field: string;
  data: AgentRecord;
  own: CollectionLayout | undefined;
}) {
  const schema = useSchema().data;
  const base = useDataBase();
  const field = collection.fields.find((candidate) => candidate.field === name);
  if (!field) return null;
  if (isToOne(field)) {
    const related = data.toOne[field.field];
    const target = collectionOf(schema, targetCollection(field));
    if (!related) {
      return (
        <Text span c="dimmed" size="sm">
          —
        </Text>
      );
    }
    return (
      <RelationLink
        to={recordPath(base, related.type, related.id)}
        label={String((target && related.values[labelField(target)]) ?? `#${related.id}`)}
      />
    );
  }
  const value = <Value field={field} value={data.values[field.field]} />;
  const widget = own?.fields?.[name]?.display;
  if (!widget) return value;
  return (
    <WidgetCell
      widget={widget}
      value={data.values[field.field]}
      record={data.values}
      fallback={value}
    />
  );
}

export function RecordSections({
  collection,
  sections,
  data,
  own,
}: {
  collection: SchemaCollection;
  sections: LayoutSection[];
  data: AgentRecord;
  /** The collection's part of the team's layout (display widgets). */
  own: CollectionLayout | undefined;
}) {
  return (
    <Stack gap="md">
      {sections.map((section, index) => (
        <SectionBox key={`${index}:${section.title ?? ''}`} title={section.title} as="section">
          {section.fields.map((field) => (
            <div key={field} data-field={field}>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase" mb={2}>
                {humanize(field)}
              </Text>
              <FieldValue collection={collection} field={field} data={data} own={own} />
            </div>
          ))}
        </SectionBox>
      ))}
    </Stack>
  );
}
