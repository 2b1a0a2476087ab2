import { CHART_KEYS } from '@canopy/platform-protocol';
import type { RenderingPermissionsJson } from '../../platform/permission-source';
import type { SessionClaims } from '../session-claims';
import { ForbiddenError } from '../../toolkit/errors/canopy-error';

const PRIVILEGED = new Set(['admin', 'developer', 'editor']);
const SAVED = new WeakMap<RenderingPermissionsJson, Set<string>>();

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== null && item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The comparable form of a chart: known keys only, null members and key order ignored. */
export function chartFingerprint(chart: Record<string, unknown>): string {
  const picked: Record<string, unknown> = {};
  for (const key of CHART_KEYS) {
    const value = chart[key];
    if (value !== null && value !== undefined) picked[key] = value;
  }
  return canonical(picked);
}

/**
 * Chart permission (§15.3): admins, developers and editors may run any chart; other users only
 * the charts saved in their rendering, compared on the request as received (before context
 * variables are injected). Value types count: `"5"` and `5` differ.
 */
export function assertChartAllowed(
  claims: SessionClaims,
  rendering: RenderingPermissionsJson,
  chart: Record<string, unknown>,
): void {
  if (PRIVILEGED.has(claims.permissionLevel)) return;
  let saved = SAVED.get(rendering);
  if (!saved) {
    saved = new Set((rendering.stats ?? []).map((stat) => chartFingerprint(stat)));
    SAVED.set(rendering, saved);
  }
  if (!saved.has(chartFingerprint(chart))) throw new ForbiddenError();
}
