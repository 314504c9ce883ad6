/**
 * Runs `task` once the browser has shown the page's first content: when it reports the first
 * contentful paint (the moment the frame reached the screen, which can be well after it was drawn).
 * Where paint timing is not reported, a task queued from an animation-frame callback runs after that
 * frame is drawn. A hidden page shows nothing, so there the task runs on the next turn.
 */
export function afterFirstPaint(task: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    task();
  };
  if (document.visibilityState === 'hidden') {
    setTimeout(run, 0);
    return;
  }
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(run, 0));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    run();
  });
  observer.observe({ type: 'paint', buffered: true });
  // A page whose first view has nothing contentful to paint still gets its code.
  setTimeout(() => {
    observer.disconnect();
    run();
  }, 3000);
}
