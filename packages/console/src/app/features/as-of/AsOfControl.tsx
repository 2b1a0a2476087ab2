/**
 * The toolbar's "As of" control: a button, then the date-time picker (AsOfPicker.tsx, loaded on
 * first use, not with the list), whose moment goes in the address (`asOf=`, an instant, so that a
 * shared link shows the same moment); cleared, the list is back to now. It reads the address
 * itself, so the memoized toolbar never shows a stale moment.
 */
import { Button } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { readAsOf, writeAsOf } from '../../../protocol/as-of';

const AsOfPicker = lazy(() =>
  import('./AsOfPicker').then((module) => ({ default: module.AsOfPicker })),
);

function AsOfButton({ onClick, loading }: { onClick?: () => void; loading?: boolean }) {
  return (
    <Button
      variant="default"
      onClick={onClick}
      loading={loading}
      title="See this page of the list as it was at a past time"
    >
      As of…
    </Button>
  );
}

export function AsOfControl({ prefix = '' }: { prefix?: string }) {
  const [params, setParams] = useSearchParams();
  const at = readAsOf(params, prefix);
  const [picking, setPicking] = useState(false);
  if (!at && !picking) return <AsOfButton onClick={() => setPicking(true)} />;
  return (
    <Suspense fallback={<AsOfButton loading />}>
      <AsOfPicker
        at={at}
        open={picking}
        onPick={(next) => setParams(writeAsOf(params, next, prefix))}
        onDone={() => setPicking(false)}
      />
    </Suspense>
  );
}
