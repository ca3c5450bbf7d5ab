/** The README's configuration tables, one per app under `## Configuration`, and what their default cells must say. */
import type { z } from 'zod';
import type { AppName, DeployableApp } from './deployable-apps';

const NO_DEFAULT = '—';

export interface ConfigurationRow {
  /** The row as the README has it. */
  line: string;
  variables: string[];
  defaults: string[];
}

/** The table under the `### … (`apps/<name>`)` heading of the README's Configuration section. */
export function configurationTable(readme: string, name: AppName): ConfigurationRow[] {
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
      line,
      variables: [...variables.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]),
      defaults: defaults.split(/,\s*/).map((d) => d.replace(/`/g, '').trim()),
    };
  });
}

/** What the default cell must say: the schema's default, — without one, undefined when not checkable. */
export function expectedDefault(app: DeployableApp, key: string): string | undefined {
  const field = app.schema?.shape[key] as z.ZodType | undefined;
  const parsed = field?.safeParse(undefined);
  if (!parsed) return undefined;
  if (!parsed.success || parsed.data === undefined) return NO_DEFAULT;
  const value: unknown = parsed.data;
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : undefined;
}
