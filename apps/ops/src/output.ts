/** Every command prints for people by default and one JSON document with `--json`, for scripts. */
export function print(json: boolean, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, bigintSafe, 2)}\n` : `${human()}\n`);
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
