/**
 * The record page's own tabs under the team's layout (record-layout.ts): tabs of fields in
 * sections and tabs of related (to-many) collections, in the layout's order. The page adds its
 * notes, activity and history tabs after them. Mantine's tabs find each other through context,
 * so the list and the panels are two components the page puts in its `Tabs`.
 *
 * ```tsx
 * const tabs = useRecordTabs(collection);
 * <Tabs><Tabs.List><RecordTabList tabs={tabs} />…</Tabs.List><RecordTabPanels tabs={tabs} … /></Tabs>
 * ```
 */
import { Tabs } from '@mantine/core';
import {
  humanize,
  isRelation,
  isToMany,
  isToOne,
  labelField,
  targetCollection,
  type AgentRecord,
  type SchemaCollection,
} from '../../protocol';
import { CollectionTable } from '../components/CollectionTable';
import { collectionOf, useSchema } from '../data';
import { collectionLayout } from './apply-layout';
import { applyRecordPage, type PageTab } from './record-layout';
import { RecordSections } from './RecordSections';
import { useTeamLayout } from './team-layout';

/** Today's order of a record's fields: key and label first, imported fields (`a@@@b`) last. */
export function recordFields(collection: SchemaCollection): string[] {
  const label = labelField(collection);
  const place = (f: SchemaCollection['fields'][number]) =>
    f.isPrimaryKey ? 0 : f.field === label ? 1 : f.field.includes('@@@') ? 3 : 2;
  return collection.fields
    .filter((f) => !isRelation(f) || isToOne(f))
    .map((f, index) => ({ f, index }))
    .sort((a, b) => place(a.f) - place(b.f) || a.index - b.index)
    .map(({ f }) => f.field);
}

/** The to-many relations of a collection whose target the user may browse, in schema order. */
export function relatedCollections(
  collection: SchemaCollection,
  schema: ReturnType<typeof useSchema>['data'],
): string[] {
  return collection.fields
    .filter(isToMany)
    .filter((f) => collectionOf(schema, targetCollection(f)))
    .map((f) => f.field);
}

/** The tabs of `collection`'s record page for the team (its draft, in layout mode). */
export function useRecordTabs(collection: SchemaCollection | undefined): PageTab[] {
  const schema = useSchema().data;
  const { layout } = useTeamLayout();
  if (!collection) return [];
  return applyRecordPage(
    collectionLayout(layout, collection.name)?.recordPage,
    recordFields(collection),
    relatedCollections(collection, schema),
  );
}

const titleOf = (tab: PageTab) =>
  tab.kind === 'fields' ? tab.title : (tab.title ?? humanize(tab.related));

export function RecordTabList({ tabs }: { tabs: PageTab[] }) {
  return tabs.map((tab) => (
    <Tabs.Tab key={tab.key} value={tab.key}>
      {titleOf(tab)}
    </Tabs.Tab>
  ));
}

export function RecordTabPanels({
  tabs,
  collection,
  data,
}: {
  tabs: PageTab[];
  collection: SchemaCollection;
  data: AgentRecord;
}) {
  const schema = useSchema().data;
  const own = collectionLayout(useTeamLayout().layout, collection.name);
  return tabs.map((tab) => {
    if (tab.kind === 'fields') {
      return (
        <Tabs.Panel key={tab.key} value={tab.key} pt="md">
          <RecordSections collection={collection} sections={tab.sections} data={data} own={own} />
        </Tabs.Panel>
      );
    }
    const field = collection.fields.find((candidate) => candidate.field === tab.related)!;
    const target = collectionOf(schema, targetCollection(field))!;
    return (
      <Tabs.Panel key={tab.key} value={tab.key} pt="md">
        <CollectionTable
          collection={target}
          relation={field}
          prefix={`${field.field}.`}
          source={{
            collection: target.name,
            related: { parent: collection.name, parentId: data.id, relation: field.field },
          }}
        />
      </Tabs.Panel>
    );
  });
}
