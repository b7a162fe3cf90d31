/**
 * The module diagram of src/README.md, drawn from the imports: dependency-cruiser resolves every import of
 * src (as tsc does), this script folds files into their modules and prints a Mermaid flowchart with one
 * arrow per module that imports another. dependency-cruiser's own Mermaid output draws files, not modules,
 * and would be a thousand lines: the folding is the part written here.
 *
 *   npx tsx scripts/module-graph.ts           prints the diagram
 *   npx tsx scripts/module-graph.ts --check   fails when src/README.md's diagram differs (CI runs it)
 *   npx tsx scripts/module-graph.ts --write   writes it into src/README.md between the markers
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const README = 'src/README.md';
const BEGIN = '<!-- module-graph:begin (scripts/module-graph.ts --write) -->';
const END = '<!-- module-graph:end -->';

interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string; coreModule: boolean; dependencyTypes: string[] }[] }[];
}

/** The module a file belongs to: src/station/radio/routes.ts -> station/radio; src/app.ts -> app. */
export function moduleOf(path: string): string | null {
  const parts = path.replace(/^src\//, '').split('/');
  if (!path.startsWith('src/')) return null;
  if (parts.length === 1) return parts[0].replace(/\.ts$/, '');
  // The engine is one module to the rest (one interface, engine.ts); its insides are drawn in its own READMEs.
  if (parts[0] === 'engine') return 'engine';
  if (['station', 'platform', 'infra'].includes(parts[0])) return parts.length > 2 ? `${parts[0]}/${parts[1]}` : `${parts[0]}/${parts[1].replace(/\.ts$/, '')}`;
  return parts[0];
}

function cruise(): CruiseResult {
  const out = execFileSync('npx', ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(out) as CruiseResult;
}

const LOWEST = /^(infra\/|infra$|kernel|lib|errors|pagination|config)/;
const COMPOSITION = /^(app|main|worker|ml-service|station\/modules)$/;

/** The layers, drawn as boxes: what a module may import grows from the kernel up to the composition root. */
const GROUPS: [string, RegExp][] = [
  ['composition', /^(app|main|worker|ml-service|config|station\/modules|demo)$/],
  ['station', /^station\//],
  ['platform', /^platform\//],
  ['shared', /^(auth|http|ml-service)$/],
  ['engine', /^engine/],
  ['kernel and infrastructure', /^(infra|kernel|lib|errors|pagination)/],
];

export function diagram(result: CruiseResult): string {
  const edges = new Set<string>();
  const nodes = new Set<string>();
  for (const m of result.modules) {
    const from = moduleOf(m.source);
    if (!from) continue;
    nodes.add(from);
    for (const d of m.dependencies) {
      const to = d.coreModule ? null : moduleOf(d.resolved);
      if (!to || to === from) continue;
      // Every module may use the kernel and the infrastructure, and the composition root uses every module:
      // those arrows would be half the drawing and say nothing, so the README states them once instead.
      if (LOWEST.test(to) || COMPOSITION.test(from)) continue;
      nodes.add(to);
      edges.add(`${from} --> ${to}`);
    }
  }
  const id = (name: string) => name.replace(/[^a-z0-9]/gi, '_');
  const lines = ['```mermaid', 'flowchart TB'];
  const placed = new Set<string>();
  for (const [title, pattern] of GROUPS) {
    const members = [...nodes].filter((n) => !placed.has(n) && pattern.test(n)).sort();
    if (members.length === 0) continue;
    lines.push(`  subgraph layer_${id(title)}["${title}"]`);
    for (const n of members) {
      lines.push(`    ${id(n)}["${n}"]`);
      placed.add(n);
    }
    lines.push('  end');
  }
  for (const n of [...nodes].filter((n) => !placed.has(n)).sort()) lines.push(`  ${id(n)}["${n}"]`);
  for (const e of [...edges].sort()) {
    const [from, to] = e.split(' --> ');
    lines.push(`  ${id(from)} --> ${id(to)}`);
  }
  lines.push('```');
  return lines.join('\n');
}

function main(): void {
  const drawn = diagram(cruise());
  const mode = process.argv[2];
  if (!mode) {
    console.log(drawn);
    return;
  }
  const readme = readFileSync(README, 'utf8');
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${README} has no ${BEGIN} ... ${END} block`);
  const current = readme.slice(start + BEGIN.length, end).trim();
  if (mode === '--check') {
    if (current !== drawn) {
      console.error(`${README}: the module diagram differs from the imports; run npx tsx scripts/module-graph.ts --write`);
      process.exit(1);
    }
    console.log(`${README}: the module diagram matches the imports`);
  } else if (mode === '--write') {
    writeFileSync(README, `${readme.slice(0, start + BEGIN.length)}\n${drawn}\n${readme.slice(end)}`);
  }
}

main();
