/**
 * The bulk edit dialog, loaded when first opened: it reuses the record form's inputs, whose page
 * (and date pickers) stay out of the first screen's bundle.
 */
import { lazy, Suspense, type ComponentProps } from 'react';

const BulkEditDialog = lazy(() =>
  import('./BulkEditDialog').then((module) => ({ default: module.BulkEditDialog })),
);

export function LazyBulkEditDialog(props: ComponentProps<typeof BulkEditDialog>) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <BulkEditDialog {...props} />
    </Suspense>
  );
}
