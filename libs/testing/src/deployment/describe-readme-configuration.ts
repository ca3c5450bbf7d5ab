import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../repo-root';
import type { DeployableApp } from './deployable-apps';
import { configurationTable, expectedDefault } from './readme-configuration-table';

/**
 * The README's configuration table of one app against the app, run by the app's own test with its
 * config: the table lists exactly the variables the app reads (its schema's, plus any the code reads
 * outside it) and shows each schema default as the schema has it.
 */
export function describeReadmeConfiguration(app: DeployableApp): void {
  describe(`the README's configuration table of ${app.name}`, () => {
    const readme = readFileSync(join(repoRoot(), 'README.md'), 'utf8');
    const rows = configurationTable(readme, app.name);

    it('lists every variable the app reads, and only those, once', () => {
      expect(rows.flatMap((r) => r.variables).sort()).toEqual([...app.envKeys].sort());
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

    it('would notice a variable missing from the table', () => {
      // Each table pads its columns to its own widths, so the row's text is in no other table (and if it
      // were, this table would keep the row and the test fail rather than pass).
      const [{ line, variables }] = rows;
      const documented = configurationTable(readme.replace(line, ''), app.name).flatMap((r) => r.variables);
      expect(documented).not.toContain(variables[0]);
      expect(app.envKeys.has(variables[0])).toBe(true);
    });
  });
}
