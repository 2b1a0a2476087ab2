/** The banner over the rows: select every record of the view (across pages), or clear that. */
import { Button, Group, Text } from '@mantine/core';
import type { selectAllBanner } from './selection';

export function SelectAllBanner({
  banner,
  onSelectAll,
  onClear,
}: {
  banner: ReturnType<typeof selectAllBanner>;
  onSelectAll(): void;
  onClear(): void;
}) {
  if (!banner) return null;
  return (
    <Group
      gap="xs"
      justify="center"
      py={6}
      px="sm"
      data-testid="select-all-banner"
      role="status"
      style={{
        background: 'var(--mantine-color-blue-light)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <Text size="sm">{banner.text}</Text>
      <Button size="compact-sm" variant="subtle" onClick={banner.selectAll ? onSelectAll : onClear}>
        {banner.button}
      </Button>
    </Group>
  );
}
