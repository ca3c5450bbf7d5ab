/** One flag of a benchmark or reliability script's command line, with readers for its value. */
export interface Flag {
  name: string;
  /** The next argument, required. */
  value(): string;
  /** The next argument as a whole number ≥ min (underscores allowed: 1_000_000). */
  count(min?: number): number;
}

/**
 * Walks a script's arguments: `handle` applies each flag and returns false for one it does not know.
 * `--help`/`-h` print the usage and exit; a missing value, a bad number or an unknown flag throws
 * with the usage, so every script reports mistakes the same way.
 */
export function parseFlags(argv: readonly string[], usage: string, handle: (flag: Flag) => boolean): void {
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i] as string;
    if (name === '--help' || name === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value\n${usage}`);
      return v;
    };
    const count = (min = 0): number => {
      const n = Number(value().replace(/_/g, ''));
      if (!Number.isInteger(n) || n < min) throw new Error(`${name} needs a whole number ≥ ${min}\n${usage}`);
      return n;
    };
    if (!handle({ name, value, count })) throw new Error(`unknown flag ${name}\n${usage}`);
  }
}
