import { createProjectGraphAsync } from '@nx/devkit';
import { ESLint } from 'eslint';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');
const RULE = '@nx/enforce-module-boundaries';

async function boundaryErrors(eslint: ESLint, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message);
}

describe('the layers of eslint.config.js', () => {
  let eslint: ESLint;

  beforeAll(async () => {
    // The rule reads Nx's cached project graph and silently does nothing without one (a fresh clone).
    await createProjectGraphAsync({ exitOnError: false });
    // The workspace's own eslint.config.js, handed over as an object: ESLint would load the file with a
    // dynamic import(), which jest's module sandbox does not support.
    eslint = new ESLint({
      cwd: repoRoot,
      overrideConfigFile: true,
      overrideConfig: require(join(repoRoot, 'eslint.config.js')),
    });
  }, 60_000);

  it('rejects an import of @lottery/chain from libs/domain', async () => {
    const errors = await boundaryErrors(
      eslint,
      'libs/domain/src/bad.ts',
      "import { chainModule } from '@lottery/chain';\nexport const x = chainModule;\n",
    );
    // Which message depends on the graph (chain imports domain, so Nx reports the cycle first); what
    // matters is that the import is an error of the layer rule.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/chain/);
  });

  it('allows libs/projection to import @lottery/persistence', async () => {
    const errors = await boundaryErrors(
      eslint,
      'libs/projection/src/good.ts',
      "import * as persistence from '@lottery/persistence';\nexport const x = persistence;\n",
    );
    expect(errors).toEqual([]);
  });
});
