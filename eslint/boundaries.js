// The layers of DESIGN.md as import rules (docs/ARCHITECTURE.md). Feature zones are read from the folder
// tree, so a new feature is covered the day its folder appears.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const featuresOf = (dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

const client = (p) => `src/client/${p}`;
const server = (p) => `src/server/${p}`;

/** Client: main/entry-server/app -> pages -> features -> components -> lib; a feature never imports another. */
export function clientZones() {
  const top = [client('main.tsx'), client('entry-server.tsx'), client('app')];
  const zones = [
    { target: client('lib'), from: [...top, client('pages'), client('features'), client('components')], message: 'lib is the lowest client layer: it imports no component, feature or page.' },
    { target: client('components'), from: [...top, client('pages'), client('features')], message: 'Components are shared UI: they import no feature or page.' },
    { target: client('features'), from: [...top, client('pages')], message: 'Features are composed by pages; they do not import pages or the app shell.' },
    { target: client('pages'), from: top, message: 'Pages do not import the app shell.' },
  ];
  for (const feature of featuresOf('src/client/features')) {
    zones.push({
      target: client(`features/${feature}`),
      from: client('features'),
      except: [`./${feature}`],
      message: 'A feature does not import another feature: move what both need into lib/ or components/, or let the page compose them.',
    });
  }
  return zones;
}

/**
 * Server: main/app and the command-line entries -> features -> platform -> db -> config. A feature
 * reaches another only through its public face, `<feature>/service.ts`.
 */
export function serverZones() {
  const features = featuresOf('src/server/features');
  const entries = fs.readdirSync(path.join(root, 'src/server')).filter((f) => f.endsWith('-cli.ts'));
  const top = [server('main.ts'), server('app.ts'), ...entries.map(server)];
  const zones = [
    { target: server('config.ts'), from: [server('db'), server('platform'), server('features')], message: 'config imports nothing of the app.' },
    { target: server('db'), from: [...top, server('platform'), server('features')], message: 'db is below platform and features: it imports neither.' },
    { target: server('platform'), from: [...top, server('features')], message: 'platform serves every feature: it imports none.' },
    { target: server('features'), from: top, message: 'Features take their dependencies from deps.ts, never from the app that composes them.' },
    {
      target: server('features/**/*routes.ts'),
      from: [server('db'), 'node_modules/drizzle-orm'],
      message: 'Routes stay thin: they validate, call a service and answer; only services touch the database.',
    },
  ];
  for (const feature of features) {
    zones.push({
      target: server(`features/${feature}`),
      from: server('features'),
      except: [`./${feature}`, ...features.filter((f) => f !== feature).map((f) => `./${f}/service.ts`)],
      message: `A feature reaches another only through that feature's service.ts.`,
    });
  }
  return zones;
}

/** Test code composes whatever it needs; the layers bind the product code. */
export const TEST_FILES = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/test-support.ts',
  '**/test-fixtures.ts',
  'src/server/test/**',
  'src/client/test/**',
  'src/client/test-setup.ts',
];
