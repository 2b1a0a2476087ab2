/**
 * A cell shown with a display widget of the team's layout (widget-format.ts describes it; this
 * draws it), or `fallback` — today's cell — when no widget applies. Markdown becomes React elements
 * from `marked`'s tokens (Markdown.tsx): no HTML of a record reaches the page.
 */
import { Badge, Progress, Text } from '@mantine/core';
import type { LayoutWidget } from '@canopy/platform-protocol';
import { lazy, Suspense, type ReactNode } from 'react';
import { widgetView } from './widget-format';
import './widgets.css';

/** `marked` loads with the first markdown cell, not with the first screen. */
const Markdown = lazy(() => import('./Markdown'));
/** The rich-text, file and map-point widgets load with their first cell. */
const MoreWidgetCell = lazy(() => import('./MoreWidgetCell'));

export function WidgetCell({
  widget,
  value,
  record,
  fallback,
}: {
  widget: LayoutWidget;
  value: unknown;
  record: Record<string, unknown>;
  fallback: ReactNode;
}) {
  const view = widgetView(widget, value, record);
  if (!view) return <>{fallback}</>;
  switch (view.kind) {
    case 'text':
      return <span className="lw-text">{view.text}</span>;
    case 'badge':
      return (
        <Badge
          variant={view.colour ? 'filled' : 'light'}
          color={view.colour ?? 'gray'}
          autoContrast
          tt="none"
          className="lw-badge"
          data-widget="badge"
        >
          {view.text}
        </Badge>
      );
    case 'image':
      return (
        <img
          className="lw-image"
          src={view.src}
          alt=""
          loading="lazy"
          referrerPolicy="no-referrer"
          style={{ height: view.height, maxWidth: view.height * 4 }}
          data-widget="image"
        />
      );
    case 'markdown':
      return (
        <Suspense fallback={<span className="lw-markdown">{view.source}</span>}>
          <Markdown source={view.source} />
        </Suspense>
      );
    case 'progress':
      return (
        <Progress
          value={view.percent}
          size="md"
          miw={80}
          aria-label={view.text}
          title={view.text}
          data-widget="progress"
        />
      );
    case 'rating':
      return (
        <span className="lw-rating" aria-label={`${view.value} of ${view.max}`} role="img">
          {'★'.repeat(view.value)}
          <span className="lw-rating-off">{'★'.repeat(view.max - view.value)}</span>
        </span>
      );
    case 'colour':
      return (
        <span className="lw-colour">
          <span className="lw-swatch" style={{ background: view.colour }} aria-hidden />
          <Text span size="sm" ff="monospace">
            {view.colour}
          </Text>
        </span>
      );
    case 'switch':
      // Drawn, not a Mantine Switch: a hundred read-only inputs with their wrappers cost a table
      // page more than the rest of its cells, and there is nothing to toggle here.
      return (
        <span className="lw-switch" data-on={view.on || undefined} data-widget="switch">
          <span className="lw-switch-track" aria-hidden />
          <span>{view.text}</span>
        </span>
      );
    case 'link':
      return (
        <a
          href={view.href}
          target={view.newTab ? '_blank' : undefined}
          rel="noopener noreferrer"
          onClick={(e) => e.stopPropagation()}
        >
          {view.text}
        </a>
      );
    case 'json':
      return <code className="lw-json">{view.text}</code>;
    case 'more':
      return (
        <Suspense fallback={fallback}>
          <MoreWidgetCell widget={view.widget} value={view.value} fallback={fallback} />
        </Suspense>
      );
  }
}
