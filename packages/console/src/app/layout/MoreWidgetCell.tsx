/**
 * The `rich-text`, `file` and `map-point` display widgets (more-widgets.ts reads their values),
 * loaded with the first such cell, never with the first screen. The agent's HTML is sanitized by
 * DOMPurify (SafeHtml.tsx), itself loaded with the first rich-text cell. A value the widget cannot
 * show is today's cell (`fallback`).
 */
import type { LayoutWidget } from '@canopy/platform-protocol';
import { lazy, Suspense, type MouseEvent, type ReactNode } from 'react';
import { filesView, mapPointView } from './more-widgets';

const SafeHtml = lazy(() =>
  import('../features/actions/SafeHtml').then((module) => ({ default: module.SafeHtml })),
);

/** A click on a link inside a cell follows the link, not the row's record. */
const keepLinkClicks = (event: MouseEvent) => {
  if ((event.target as HTMLElement).closest('a')) event.stopPropagation();
};
const stop = (event: MouseEvent) => event.stopPropagation();

export default function MoreWidgetCell({
  widget,
  value,
  fallback,
}: {
  widget: LayoutWidget;
  value: unknown;
  fallback: ReactNode;
}) {
  if (widget.type === 'rich-text' && typeof value === 'string') {
    return (
      <div className="lw-rich" data-widget="rich-text" onClick={keepLinkClicks}>
        <Suspense fallback={fallback}>
          <SafeHtml html={value} />
        </Suspense>
      </div>
    );
  }
  if (widget.type === 'file') {
    const files = filesView(value);
    if (!files) return <>{fallback}</>;
    return (
      <span className="lw-files" data-widget="file">
        {files.map((file, index) => (
          <a
            key={index}
            className="lw-file"
            href={file.href}
            {...(file.download
              ? { download: file.name }
              : { target: '_blank', rel: 'noopener noreferrer' })}
            title={file.size ? `${file.name} (${file.size})` : file.name}
            onClick={stop}
          >
            {file.thumbnail && (
              <img src={file.thumbnail} alt="" loading="lazy" referrerPolicy="no-referrer" />
            )}
            <span className="lw-file-name">{file.name}</span>
            {file.size && <span className="lw-file-size">{file.size}</span>}
          </a>
        ))}
      </span>
    );
  }
  const point = widget.type === 'map-point' ? mapPointView(widget, value) : undefined;
  if (!point) return <>{fallback}</>;
  return (
    <a
      className="lw-text"
      href={point.href}
      target="_blank"
      rel="noopener noreferrer"
      title="Open in OpenStreetMap"
      data-widget="map-point"
      onClick={stop}
    >
      {point.text}
    </a>
  );
}
