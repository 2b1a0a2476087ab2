/**
 * A record: every field, to-one links, and one tab per to-many relation with its own table
 * (filter, sort, paginate, export, associate, dissociate); previous/next within the list it was
 * opened from; edit and delete where the role allows.
 */
import './record.css';
import {
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Menu,
  Modal,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconChevronLeft,
  IconChevronRight,
  IconCopy,
  IconDots,
  IconEdit,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { AgentError, humanize, labelField } from '../../protocol';
import { readListContext } from '../components/CollectionTable';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageLoader, UnknownCollection } from '../components/States';
import { collectionOf, rememberDenied, useCan, useDataBase, useRecord, useSchema } from '../data';
import { useSession } from '../session';
import { ActionsMenu } from '../features/actions/ActionsMenu';
import { NotesThread } from '../features/notes/NotesThread';
import { RecordActivity } from '../features/activity/RecordActivity';
import { RecordHistory, useHasRecordHistory } from '../features/history/RecordHistory';
import { RecordLiveBar } from '../features/live/RecordLiveBar';
import { RecordTabList, RecordTabPanels, useRecordTabs } from '../layout/RecordTabs';
import { RecordLayoutButton } from '../layout/LayoutButton';
import { collectionPath, duplicatePath, recordEditPath, recordPath } from '../data-paths';

export function RecordPage() {
  const { collection: name, id } = useParams();
  const schema = useSchema();
  const record = useRecord(name!, id);
  const can = useCan();
  const base = useDataBase();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { client } = useSession();
  const [params, setParams] = useSearchParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const hasHistory = useHasRecordHistory();
  const collection = collectionOf(schema.data, name);
  const pageTabs = useRecordTabs(collection);

  // A record the agent said is missing stays so while the query asks again (the History below
  // reads it too): a refetch without data is `pending` again, which would unmount the History
  // and mount it anew, in a loop.
  const missing = record.data === undefined && record.errorUpdatedAt > 0;
  if (schema.isPending || (record.isPending && !missing))
    return <PageLoader label="Loading the record" />;
  if (!collection) return <UnknownCollection name={name} />;
  const listUrl = collectionPath(base, collection.name);
  const context = readListContext(collection.name);
  const backUrl = context ? `${listUrl}?${context.search}` : listUrl;
  // Duplicate: the create form prefilled with this record (form-values.ts), for who may create.
  const canDuplicate = can(collection.name, 'addEnabled') && !collection.isReadOnly;
  const duplicateUrl = duplicatePath(base, collection.name, record.data?.id ?? '');
  if (record.isError || missing || !record.data) {
    const forbidden = record.error instanceof AgentError && record.error.status === 403;
    return (
      <Stack>
        <Anchor component={Link} to={backUrl} size="sm">
          ← {humanize(collection.name)}
        </Anchor>
        <Alert
          color={forbidden ? 'orange' : 'red'}
          title={forbidden ? 'Not allowed' : 'Record not found'}
          role="alert"
        >
          {record.error ? (
            <ErrorMessage error={record.error} context={{ collection: collection.name }} />
          ) : (
            'This record does not exist, or it is outside what your team may see.'
          )}
        </Alert>
        {/* A deleted record keeps its history (agent protocol §13.1: readable by anyone who may
            read the collection), and with it the revert of its deletion. */}
        {!forbidden && hasHistory && id !== undefined && (
          <RecordHistory collection={collection.name} recordId={id} gone />
        )}
      </Stack>
    );
  }
  const data = record.data;
  const label = labelField(collection);
  const singular = humanize(collection.name).replace(/s$/, '');
  const title = collection.fields.find((f) => f.field === label)?.isPrimaryKey
    ? `${singular} #${data.id}`
    : String(data.values[label] ?? `${singular} #${data.id}`);
  const position = context?.ids.indexOf(data.id) ?? -1;
  const previous = position > 0 ? context!.ids[position - 1] : undefined;
  const next =
    position >= 0 && position < context!.ids.length - 1 ? context!.ids[position + 1] : undefined;
  const tab = params.get('tab') ?? 'details';

  const remove = async () => {
    try {
      await client.remove(collection.name, { ids: [data.id] });
      notifications.show({
        color: 'teal',
        message: `${humanize(collection.name).replace(/s$/, '')} ${title} deleted.`,
      });
      await queryClient.invalidateQueries({ queryKey: ['list'] });
      await queryClient.invalidateQueries({ queryKey: ['count'] });
      navigate(backUrl);
    } catch (error) {
      if (error instanceof AgentError && error.status === 403)
        rememberDenied(collection.name, 'deleteEnabled');
      notifications.show({ color: 'red', title: 'Not deleted', message: (error as Error).message });
    } finally {
      setConfirmDelete(false);
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2} miw={0} className="record-heading">
          <Breadcrumbs>
            <Anchor component={Link} to={backUrl} size="sm">
              {humanize(collection.name)}
            </Anchor>
            <Text size="sm" c="dimmed">
              #{data.id}
            </Text>
          </Breadcrumbs>
          <Title order={2} className="record-title">
            {title}
          </Title>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button.Group>
            <Button
              variant="default"
              disabled={!previous}
              aria-label="Previous record"
              onClick={() => navigate(recordPath(base, collection.name, previous!))}
            >
              <IconChevronLeft size={16} />
            </Button>
            <Button
              variant="default"
              disabled={!next}
              aria-label="Next record"
              onClick={() => navigate(recordPath(base, collection.name, next!))}
            >
              <IconChevronRight size={16} />
            </Button>
          </Button.Group>
          <ActionsMenu collection={collection} place="record" selection={{ ids: [data.id] }} />
          <RecordLayoutButton collection={collection} />
          {/* Wide screens: the buttons; a phone: one menu, so the toolbar stays on one row. */}
          {can(collection.name, 'editEnabled') && !collection.isReadOnly && (
            <Button
              component={Link}
              to={recordEditPath(base, collection.name, data.id)}
              leftSection={<IconEdit size={16} />}
              variant="light"
              visibleFrom="sm"
            >
              Edit
            </Button>
          )}
          {can(collection.name, 'deleteEnabled') && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              onClick={() => setConfirmDelete(true)}
              visibleFrom="sm"
            >
              Delete
            </Button>
          )}
          {canDuplicate && (
            <Button
              component={Link}
              to={duplicateUrl}
              leftSection={<IconCopy size={16} />}
              variant="default"
              visibleFrom="sm"
            >
              Duplicate
            </Button>
          )}
          {((can(collection.name, 'editEnabled') && !collection.isReadOnly) ||
            canDuplicate ||
            can(collection.name, 'deleteEnabled')) && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="default" hiddenFrom="sm" aria-label="More on this record" px="xs">
                  <IconDots size={16} />
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {can(collection.name, 'editEnabled') && !collection.isReadOnly && (
                  <Menu.Item
                    component={Link}
                    to={recordEditPath(base, collection.name, data.id)}
                    leftSection={<IconEdit size={16} />}
                  >
                    Edit
                  </Menu.Item>
                )}
                {canDuplicate && (
                  <Menu.Item
                    component={Link}
                    to={duplicateUrl}
                    leftSection={<IconCopy size={16} />}
                  >
                    Duplicate
                  </Menu.Item>
                )}
                {can(collection.name, 'deleteEnabled') && (
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={16} />}
                    onClick={() => setConfirmDelete(true)}
                  >
                    Delete
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <RecordLiveBar collection={collection} record={data} />

      <Tabs
        value={tab}
        onChange={(value) => setParams(value === 'details' ? {} : { tab: value ?? 'details' })}
        keepMounted={false}
      >
        <Tabs.List>
          <RecordTabList tabs={pageTabs} />
          <Tabs.Tab value="notes">Notes</Tabs.Tab>
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
          {hasHistory && <Tabs.Tab value="history">History</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="notes" pt="md">
          <NotesThread collection={collection.name} recordId={data.id} />
        </Tabs.Panel>
        <Tabs.Panel value="activity" pt="md">
          <RecordActivity collection={collection.name} recordId={data.id} />
        </Tabs.Panel>
        {hasHistory && (
          <Tabs.Panel value="history" pt="md">
            <RecordHistory collection={collection.name} recordId={data.id} />
          </Tabs.Panel>
        )}
        <RecordTabPanels tabs={pageTabs} collection={collection} data={data} />
      </Tabs>

      <Modal
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title="Delete this record?"
        centered
      >
        <Stack>
          <Text size="sm">“{title}” is deleted for good. This cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={remove} data-autofocus>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
