import { createTestDatabase, type TestDatabase } from '@lottery/testing';
import { Command } from 'commander';

/**
 * Runs one command group of the CLI in this process (`register` adds it, as main.ts does) and returns
 * what it printed; a failure rejects instead of exiting.
 */
export async function runInProcess(register: (program: Command) => void, ...args: string[]): Promise<string> {
  const program = new Command('ops').exitOverride().configureOutput({ writeErr: () => undefined });
  register(program);
  let out = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  try {
    await program.parseAsync(['node', 'ops', ...args]);
  } finally {
    write.mockRestore();
  }
  return out;
}

/** A fresh database that the suite's commands find through DATABASE_URL (restored after the suite). */
export function opsDatabase(label: string): void {
  let database: TestDatabase;
  const saved = process.env['DATABASE_URL'];
  beforeAll(async () => {
    database = await createTestDatabase(label);
    process.env['DATABASE_URL'] = database.url;
  });
  afterAll(async () => {
    process.env['DATABASE_URL'] = saved;
    await database?.drop();
  });
}
