/**
 * Layout mode's choice of a sidebar icon among the catalogue (icon-catalogue.ts), each option
 * drawn with its icon; "No icon" keeps the usual one. Part of the sidebar's layout panel, which
 * loads on its first click.
 */
import { Group, Select } from '@mantine/core';
import { SIDEBAR_ICON_NAMES, SIDEBAR_ICONS } from './icon-catalogue';

const NONE = 'none';
const OPTIONS = [
  { value: NONE, label: 'No icon' },
  ...SIDEBAR_ICON_NAMES.map((name) => ({ value: name, label: name.replace(/-/g, ' ') })),
];

function Drawn({ name }: { name: string | undefined }) {
  const Icon = name ? SIDEBAR_ICONS[name] : undefined;
  return Icon ? <Icon size={16} aria-hidden /> : null;
}

export function IconPicker({
  label,
  value,
  onChange,
}: {
  /** Its accessible name: `Icon of Orders`. */
  label: string;
  value: string | undefined;
  onChange(icon: string | undefined): void;
}) {
  return (
    <Select
      size="xs"
      aria-label={label}
      data={OPTIONS}
      value={value && SIDEBAR_ICONS[value] ? value : NONE}
      allowDeselect={false}
      leftSection={<Drawn name={value} />}
      renderOption={({ option }) => (
        <Group gap={8} wrap="nowrap">
          <Drawn name={option.value === NONE ? undefined : option.value} />
          {option.label}
        </Group>
      )}
      onChange={(next) => onChange(next && next !== NONE ? next : undefined)}
    />
  );
}
