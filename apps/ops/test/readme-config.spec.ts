/**
 * The README's configuration tables against the apps: each app's table lists exactly the variables the
 * app reads (its schema's, plus NETWORK and LOG_LEVEL where the code reads them outside the schema), and
 * shows each schema default as the schema has it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appByName, type AppName, type DeployableApp, REPO_ROOT, schemaDefault } from './deploy-apps';

const NO_DEFAULT = '—';

interface Row {
  variables: string[];
  defaults: string[];
}

/** The table under the `### … (`apps/<name>`)` heading of the README's Configuration section. */
function configurationTable(readme: string, name: AppName): Row[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration'));
  if (!section) throw new Error('README has no "## Configuration" section');
  const subsection = section.split(/^### /m).find((s) => s.split('\n')[0].includes(`(\`apps/${name}\`)`));
  if (!subsection) throw new Error(`README's Configuration has no "### … (\`apps/${name}\`)" table`);
  const lines = subsection.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => {
    const [variables, defaults] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    return {
      variables: [...variables.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
      defaults: defaults.split(/,\s*/).map((d) => d.replace(/`/g, '').trim()),
    };
  });
}

/** What the default cell must say: the schema's default, — without one, undefined when not checkable. */
function expectedDefault(app: DeployableApp, key: string): string | undefined {
  const field = app.schema?.shape[key];
  if (!field) return undefined;
  const shown = schemaDefault(app, key);
  if (shown !== undefined) return shown;
  const parsed = field.safeParse(undefined);
  return !parsed.success || parsed.data === undefined ? NO_DEFAULT : undefined;
}

describe('README configuration tables', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

  describe.each(['indexer', 'projector', 'api'] as const)('%s', (name) => {
    const app = appByName(name);
    const rows = configurationTable(readme, name);
    const documented = rows.flatMap((r) => r.variables);

    it('lists every variable the app reads, and only those, once', () => {
      expect([...documented].sort()).toEqual([...app.envKeys].sort());
    });

    it('shows the schema defaults', () => {
      const wrong = rows.flatMap((row) =>
        row.variables.flatMap((key, i) => {
          const shown = row.defaults.length === row.variables.length ? row.defaults[i] : row.defaults.join(', ');
          const expected = expectedDefault(app, key);
          return expected === undefined || shown === expected
            ? []
            : [`${key}: README says ${shown}, schema ${expected}`];
        }),
      );
      expect(wrong).toEqual([]);
    });
  });

  it('would notice a variable missing from a table', () => {
    const trimmed = readme.replace(/^\| `BATCH_MAX_EVENTS`.*$/m, '');
    const documented = configurationTable(trimmed, 'projector').flatMap((r) => r.variables);
    expect(documented).not.toContain('BATCH_MAX_EVENTS');
    expect(appByName('projector').envKeys.has('BATCH_MAX_EVENTS')).toBe(true);
  });
});
