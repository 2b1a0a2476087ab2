/**
 * Calls `callback` once the next frame has been painted: a `requestAnimationFrame` callback runs
 * before that frame's style, layout and paint, and a message posted from it is handled after them.
 */
export function afterNextPaint(callback: () => void): () => void {
  let cancelled = false;
  const frame = requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (!cancelled) callback();
    };
    channel.port2.postMessage(null);
  });
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
  };
}
