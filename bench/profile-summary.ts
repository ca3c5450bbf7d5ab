/**
 * Summarises a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` per thread): where the time went,
 * by function (self time: the function's own code; inclusive: with everything it called, counted once
 * however often it recurses) and, by self time, by package or workspace project (the inclusive time of
 * a package says little: every async continuation starts in node's internals).
 *
 *   node -r ./tools/register.js bench/profile-summary.ts <file.cpuprofile | directory (newest profile)> [--top N]
 *
 * Percentages are of the profile's wall time. "(idle)" is the event loop waiting (for the node, the broker,
 * a timer); "(garbage collector)" and "(program)" are V8's own work outside any JavaScript function.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Line {
  name: string;
  /** Microseconds. */
  self: number;
  inclusive: number;
}

export interface ProfileSummary {
  /** Wall time the profile covers, microseconds. */
  total: number;
  functions: Line[];
  packages: Line[];
}

const ROOT = join(__dirname, '..');
const PROJECT = /(?:^|\/)((?:apps|libs|bench|tools|reliability)\/[^/]+)\/.*$/;

/** A workspace file as `libs/chain/src/...`, also from another checkout of the repository (a git worktree). */
function workspacePath(path: string): string {
  const inWorkspace = PROJECT.exec(path);
  return inWorkspace ? path.slice(inWorkspace.index).replace(/^\//, '') : relative(ROOT, path);
}

/** `kafkajs`, `@scope/name`, a workspace project (`libs/chain`), `node:internal`, or V8's own entries. */
function packageOf(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (inModules?.[1]) return inModules[1];
  return PROJECT.exec(url)?.[1] ?? relative(ROOT, url);
}

function functionOf(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  const url = frame.url.replace(/^file:\/\//, '');
  const where = url.startsWith('node:')
    ? url
    : url.includes('node_modules/')
      ? url.replace(/^.*node_modules\//, '')
      : workspacePath(url);
  return `${name} ${where}:${frame.lineNumber + 1}`;
}

/**
 * Self time per node from the samples (each sample owns the time until the next one), then both
 * aggregations: self by key, and inclusive by key without counting a key twice on one stack.
 */
export function summarise(profile: CpuProfile): ProfileSummary {
  const selfOf = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfOf.set(id, (selfOf.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const childIds = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const roots = profile.nodes.filter((n) => !childIds.has(n.id));
  const aggregate = (keyOf: (frame: CallFrame) => string): Line[] => {
    const lines = new Map<string, Line>();
    const line = (name: string): Line => {
      let l = lines.get(name);
      if (!l) lines.set(name, (l = { name, self: 0, inclusive: 0 }));
      return l;
    };
    const onStack = new Map<string, number>();
    // Iterative DFS (stacks run deep): 'enter' pushes the key, 'leave' pops it and adds the subtree.
    const subtree = new Map<number, number>();
    const work: { node: ProfileNode; leaving: boolean }[] = roots.map((node) => ({ node, leaving: false }));
    while (work.length > 0) {
      const { node, leaving } = work.pop() as { node: ProfileNode; leaving: boolean };
      const key = keyOf(node.callFrame);
      if (!leaving) {
        onStack.set(key, (onStack.get(key) ?? 0) + 1);
        work.push({ node, leaving: true });
        for (const id of node.children ?? []) {
          const child = byId.get(id);
          if (child) work.push({ node: child, leaving: false });
        }
        continue;
      }
      const self = selfOf.get(node.id) ?? 0;
      const total = self + (node.children ?? []).reduce((sum, id) => sum + (subtree.get(id) ?? 0), 0);
      subtree.set(node.id, total);
      const depth = (onStack.get(key) ?? 1) - 1;
      onStack.set(key, depth);
      const l = line(key);
      l.self += self;
      // only the outermost frame of a key counts its subtree
      if (depth === 0) l.inclusive += total;
    }
    return [...lines.values()];
  };
  return {
    total: profile.endTime - profile.startTime,
    functions: aggregate(functionOf),
    packages: aggregate(packageOf),
  };
}

function newestProfile(path: string): string {
  if (!statSync(path).isDirectory()) return path;
  const files = readdirSync(path)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(path, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${path}`);
  return files[0];
}

function table(title: string, lines: Line[], by: 'self' | 'inclusive', total: number, top: number): string {
  const pct = (us: number): string => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const s = (us: number): string => `${(us / 1e6).toFixed(2).padStart(7)} s`;
  const rows = [...lines]
    .filter((l) => l.name !== '(root)')
    .sort((a, b) => b[by] - a[by])
    .slice(0, top)
    .map(
      (l) =>
        `  ${s(l[by])} ${pct(l[by])}   ${by === 'self' ? 'incl' : 'self'} ${pct(by === 'self' ? l.inclusive : l.self)}   ${l.name}`,
    );
  return [`${title} (by ${by} time)`, ...rows].join('\n');
}

function main(argv: readonly string[]): void {
  const topFlag = argv.indexOf('--top');
  const top = topFlag >= 0 ? Number(argv[topFlag + 1]) : 15;
  const path = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--top');
  if (!path) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile | directory> [--top N]');
  const file = newestProfile(path);
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  const idle = summary.packages.find((p) => p.name === '(idle)')?.self ?? 0;
  console.log(
    `${file}: ${(summary.total / 1e6).toFixed(2)} s of wall time, ${(((summary.total - idle) / summary.total) * 100).toFixed(1)} % busy (not idle)\n`,
  );
  console.log(table('Packages and workspace projects', summary.packages, 'self', summary.total, top), '\n');
  console.log(table('Functions', summary.functions, 'self', summary.total, top), '\n');
  console.log(table('Functions', summary.functions, 'inclusive', summary.total, top));
}

if (require.main === module) main(process.argv.slice(2));
