import type { Plugin } from 'vite';

const GRANT = "setAttribute('sandbox', 'allow-same-origin allow-scripts')";
const SAFE = "setAttribute('sandbox', 'allow-same-origin')";

/**
 * foliate-js frames each book page with `sandbox="allow-same-origin allow-scripts"` (the scripts grant
 * works around a WebKit event bug). A book's scripts must never run on this site, so the build drops the
 * grant: the page stays same-origin (the reader's own script lays it out and listens to it) but nothing
 * inside it can execute. The build fails if foliate-js changes and the line is no longer found, so an
 * update can never bring the grant back unnoticed.
 */
export function foliateSandbox(): Plugin {
  return {
    name: 'foliate-sandbox',
    enforce: 'pre',
    transform(code, id) {
      if (!/foliate-js[\\/](paginator|fixed-layout)\.js$/.test(id)) return null;
      if (!code.includes(GRANT)) this.error(`foliate-js changed: the sandbox line was not found in ${id}`);
      return { code: code.replaceAll(GRANT, SAFE), map: null };
    },
  };
}
