import {
  ActionIcon,
  Alert,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Dashboard, DashboardItem } from '../../../protocol';
import { useSchema } from '../../data';
import { useSession } from '../../session';
import { ChartEditor } from './ChartEditor';
import { ChartView } from './ChartView';
import { platformJson, usePlatformPaths } from '../../platform-calls';

const WIDTHS = [
  { value: '3', label: '¼' },
  { value: '4', label: '⅓' },
  { value: '6', label: '½' },
  { value: '8', label: '⅔' },
  { value: '12', label: 'Full' },
];

/**
 * The environment's dashboard (`GET …/dashboard` on the platform; each chart on the agent).
 * Admins edit it: add, remove, reorder and resize charts, then save (`PUT …/dashboard`).
 */
export function DashboardPage() {
  const paths = usePlatformPaths();
  const { session } = useSession();
  const schema = useSchema();
  const queryClient = useQueryClient();
  const isAdmin = session.user.permissionLevel === 'admin';
  const url = `${paths.environment}/dashboard`;
  const dashboard = useQuery({
    queryKey: ['dashboard', url],
    queryFn: () => platformJson<Dashboard>(url),
  });
  const [draft, setDraft] = useState<DashboardItem[] | undefined>();
  const [adding, setAdding] = useState(false);
  const save = useMutation({
    mutationFn: (items: DashboardItem[]) =>
      platformJson<Dashboard>(url, { method: 'PUT', body: JSON.stringify({ items }) }),
    onSuccess: (saved) => {
      queryClient.setQueryData(['dashboard', url], saved);
      setDraft(undefined);
      notifications.show({ color: 'teal', message: 'Dashboard saved.' });
    },
  });

  const editing = draft !== undefined;
  const items = draft ?? dashboard.data?.items ?? [];
  const move = (index: number, by: number) => {
    const next = [...items];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    setDraft(next);
  };

  return (
    <Stack p={{ base: 0, sm: 'md' }} gap="md">
      <Group justify="space-between">
        <Title order={2}>Dashboard</Title>
        {isAdmin && (
          <Group gap="xs">
            {editing ? (
              <>
                <Button
                  variant="default"
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setAdding(true)}
                >
                  Add a chart
                </Button>
                <Button variant="subtle" onClick={() => setDraft(undefined)}>
                  Cancel
                </Button>
                <Button loading={save.isPending} onClick={() => save.mutate(items)}>
                  Save the dashboard
                </Button>
              </>
            ) : (
              <Button
                variant="default"
                disabled={!dashboard.data}
                onClick={() => setDraft(dashboard.data?.items ?? [])}
              >
                Edit the dashboard
              </Button>
            )}
          </Group>
        )}
      </Group>
      {save.isError && (
        <Alert color="red" title="The dashboard was not saved">
          {save.error.message}
        </Alert>
      )}
      {dashboard.isPending && <Skeleton h={240} />}
      {dashboard.isError && (
        <Alert color="red" title="The dashboard could not be loaded">
          {dashboard.error.message}
        </Alert>
      )}
      {dashboard.data && items.length === 0 && (
        <Text c="dimmed">
          {isAdmin
            ? 'No chart yet: choose "Edit the dashboard", then "Add a chart".'
            : 'No chart yet: an admin of the project adds them.'}
        </Text>
      )}
      <Grid>
        {items.map((item, index) => (
          <Grid.Col key={item.id} span={{ base: 12, md: item.width }}>
            <Paper withBorder p="md" radius="md" h="100%" aria-label={item.title}>
              <Group justify="space-between" mb="xs" wrap="nowrap">
                <Text fw={600} truncate>
                  {item.title}
                </Text>
                {editing && (
                  <Group gap={4} wrap="nowrap">
                    <Select
                      size="xs"
                      w={72}
                      aria-label={`Width of ${item.title}`}
                      value={String(item.width)}
                      allowDeselect={false}
                      data={WIDTHS}
                      onChange={(value) =>
                        setDraft(
                          items.map((other) =>
                            other.id === item.id ? { ...other, width: Number(value) } : other,
                          ),
                        )
                      }
                    />
                    <Tooltip label="Move earlier">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Move ${item.title} earlier`}
                        disabled={index === 0}
                        onClick={() => move(index, -1)}
                      >
                        <IconArrowUp size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Move later">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Move ${item.title} later`}
                        disabled={index === items.length - 1}
                        onClick={() => move(index, 1)}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Remove">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${item.title}`}
                        onClick={() => setDraft(items.filter((other) => other.id !== item.id))}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                )}
              </Group>
              <ChartView chart={item.chart} />
            </Paper>
          </Grid.Col>
        ))}
      </Grid>
      {schema.data && (
        <ChartEditor
          schema={schema.data}
          opened={adding}
          onClose={() => setAdding(false)}
          onAdd={(item) => {
            setDraft([...items, item]);
            setAdding(false);
          }}
        />
      )}
    </Stack>
  );
}
