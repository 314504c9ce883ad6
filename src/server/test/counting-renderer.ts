// The production server loads the build of this same entry (dist/server-render); the tests render from source.
// eslint-disable-next-line no-restricted-imports
import { renderApp } from '@client/entry-server';
import type { RenderApp } from '../platform/http/spa';

/** The real server renderer, recording the path of every page it draws (tests count the drawings). */
export function countingRenderer(): { renderApp: RenderApp; drawn: string[] } {
  const drawn: string[] = [];
  return {
    drawn,
    renderApp: (path, entries) => {
      drawn.push(path);
      return renderApp(path, entries);
    },
  };
}
