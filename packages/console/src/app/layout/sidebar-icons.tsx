/**
 * A sidebar icon of the team's layout, by name (icon-catalogue.ts). The catalogue loads with the
 * first sidebar entry that has an icon, never with the first screen; until then (and for a name
 * it does not know) the entry keeps its usual table icon, so nothing moves.
 */
import { IconTable } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type * as IconCatalogue from './icon-catalogue';

type Catalogue = typeof IconCatalogue;

let catalogue: Catalogue | undefined;
let loading: Promise<Catalogue> | undefined;

/** The catalogue, loaded once. */
export function loadIconCatalogue(): Promise<Catalogue> {
  loading ??= import('./icon-catalogue').then((module) => (catalogue = module));
  return loading;
}

/** The catalogue once it is loaded (undefined before), loading it when `wanted`. */
export function useIconCatalogue(wanted = true): Catalogue | undefined {
  const [loaded, setLoaded] = useState(catalogue);
  useEffect(() => {
    if (!wanted || loaded) return;
    let live = true;
    void loadIconCatalogue().then((module) => live && setLoaded(module));
    return () => {
      live = false;
    };
  }, [wanted, loaded]);
  return loaded;
}

export function SidebarIcon({ name, size = 16 }: { name: string | undefined; size?: number }) {
  const loaded = useIconCatalogue(name !== undefined);
  const Icon = (name && loaded?.SIDEBAR_ICONS[name]) || undefined;
  if (!Icon) return <IconTable size={size} aria-hidden />;
  return <Icon size={size} aria-hidden data-icon={name} />;
}
