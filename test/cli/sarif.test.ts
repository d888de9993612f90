import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const HELM = readFileSync(join(__dirname, 'fixtures', 'helm-web.yaml'), 'utf8');
const NO_TOLERATION = readFileSync(join(__dirname, 'inputs', 'windows-no-toleration.yaml'), 'utf8');

interface Result {
  ruleId: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  relatedLocations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
  partialFingerprints: Record<string, string>;
  suppressions?: Array<{ kind: string; justification: string }>;
}

function sarif(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Result[] {
  const r = spawnSync(process.execPath, [BIN, 'validate', '--format', 'sarif', ...args], { cwd, encoding: 'utf8', env });
  return JSON.parse(r.stdout).runs[0].results;
}

/** A repository (a `.git` marks its root) holding `files`. */
function repository(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sarif-'));
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** The chart helm-web.yaml was rendered from, its templates as Helm would hold them (template syntax and all). */
function chart(): Record<string, string> {
  const files: Record<string, string> = { 'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n' };
  for (const doc of HELM.split(/^---$/m)) {
    const source = /# Source: web\/(\S+)/.exec(doc)?.[1];
    if (source) files[`charts/web/${source}`] = `{{- /* ${source} */ -}}\n${doc.replace(/^# Source.*\n/m, '').replace(/namespace: apps/g, 'namespace: {{ .Release.Namespace }}').trimStart()}`;
  }
  return files;
}

/** The file a SARIF location names, resolved as code scanning resolves it (codeql-action src/fingerprints.ts, resolveUriToFile). */
function resolveUri(uri: string, root: string): string | undefined {
  if (uri.startsWith('file://')) return new URL(uri).pathname;
  if (/^[a-z]+:/.test(uri)) return undefined;
  const file = join(root, decodeURI(uri));
  return existsSync(file) ? file : undefined;
}

(existsSync(BIN) && existsSync('/bin/sh') ? describe : describe.skip)('--format sarif locations as GitHub code scanning reads them (issue 36.3)', () => {
  test('URIs are relative to the repository root wherever the command runs, file:// outside it, relative to --base-dir when given', () => {
    const dir = repository({ 'deploy/app.yaml': NO_TOLERATION, 'deploy/sub/keep': '' });
    const outside = mkdtempSync(join(tmpdir(), 'outside-'));
    writeFileSync(join(outside, 'other.yaml'), NO_TOLERATION);
    const args = ['--platform', 'aks', '../app.yaml', join(outside, 'other.yaml')];
    const uris = new Set(sarif(args, join(dir, 'deploy', 'sub')).map((r) => r.locations[0].physicalLocation.artifactLocation.uri));
    expect([...uris].sort()).toEqual(['deploy/app.yaml', pathToFileURL(join(outside, 'other.yaml')).href].sort());
    const based = new Set(sarif(['--base-dir', 'deploy', '--platform', 'aks', 'deploy/app.yaml'], dir).map((r) => r.locations[0].physicalLocation.artifactLocation.uri));
    expect([...based]).toEqual(['app.yaml']);
  });

  test('partialFingerprints follow the rule, object and field, not the line', () => {
    const dir = repository({ 'app.yaml': NO_TOLERATION, 'moved.yaml': `# a comment\n# another\n${NO_TOLERATION}` });
    const [a] = sarif(['--platform', 'aks', 'app.yaml'], dir);
    const [b] = sarif(['--platform', 'aks', 'moved.yaml'], dir);
    expect(a.locations[0].physicalLocation.region.startLine + 2).toBe(b.locations[0].physicalLocation.region.startLine);
    expect(a.partialFingerprints).toEqual(b.partialFingerprints);
    expect(Object.values(a.partialFingerprints)[0]).toMatch(/^[0-9a-f]{64}$/);
    const all = sarif(['--platform', 'eks', 'app.yaml'], dir).map((r) => JSON.stringify(r.partialFingerprints));
    expect(new Set(all).size).toBe(all.length);
  });

  test('a suppression by annotation is inSource, one by the config file external', () => {
    const annotated = NO_TOLERATION.replace('  namespace: apps', '  namespace: apps\n  annotations:\n    ignore-rule.cdk-hybrid-windows.io/windows-toleration: "tolerated by our webhook"');
    const dir = repository({ 'a.yaml': annotated, 'b.yaml': NO_TOLERATION.replace(/name: iis/g, 'name: other'), '.cdk-hybrid-windows.yaml': 'skipRules:\n  - rule: windows-toleration\n    reason: tolerations come from the namespace defaults\n' });
    const results = sarif(['--platform', 'aks', 'a.yaml', 'b.yaml'], dir).filter((r) => r.ruleId === 'windows-toleration');
    expect(results.map((r) => r.suppressions)).toEqual([
      [{ kind: 'inSource', justification: expect.stringContaining('tolerated by our webhook') }],
      [{ kind: 'external', justification: 'tolerations come from the namespace defaults' }],
    ]);
  });

  test('the GitHub Actions job of docs/validate.md, run as written: every alert opens a template of the chart in the repository', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'validate.md'), 'utf8');
    const workflow = load(/### GitHub Actions, with code scanning\n\n```yaml\n([\s\S]*?)```/.exec(doc)![1]) as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
    const steps = Object.values(workflow.jobs)[0].steps.filter((s) => s.run !== undefined && s.run !== 'exit 1').map((s) => s.run!);
    expect(steps).toHaveLength(2);
    const dir = repository(chart());
    // helm template renders the fixture (the chart's templates rendered); npx runs this checkout's command.
    const bin = mkdtempSync(join(tmpdir(), 'shims-'));
    writeFileSync(join(bin, 'rendered'), HELM);
    writeFileSync(join(bin, 'helm'), `#!/bin/sh\ncat ${JSON.stringify(join(bin, 'rendered'))}\n`);
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = --yes ] && shift\nshift\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
    for (const f of ['helm', 'npx']) chmodSync(join(bin, f), 0o755);
    for (const step of steps) spawnSync('/bin/sh', ['-c', step], { cwd: dir, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    const results = (JSON.parse(readFileSync(join(dir, 'windows-rules.sarif'), 'utf8')).runs[0].results as Result[]);
    expect(results.length).toBeGreaterThan(3);
    for (const r of results) {
      const { uri } = r.locations[0].physicalLocation.artifactLocation;
      expect(uri).toMatch(/^charts\/web\/templates\/\w+\.yaml$/);
      const file = resolveUri(uri, dir);
      expect(file).toBeDefined();
      expect(r.locations[0].physicalLocation.region.startLine).toBeLessThanOrEqual(readFileSync(file!, 'utf8').split('\n').length);
      expect(r.relatedLocations?.[0].physicalLocation.artifactLocation.uri).toBe('rendered.yaml');
    }
    // The Job's memory emptyDir finding opens job.yaml at its medium line.
    const medium = results.find((r) => r.locations[0].physicalLocation.artifactLocation.uri === 'charts/web/templates/job.yaml' && r.ruleId === 'windows-memory-emptydir');
    const line = readFileSync(join(dir, 'charts/web/templates/job.yaml'), 'utf8').split('\n')[medium!.locations[0].physicalLocation.region.startLine - 1];
    expect(line).toMatch(/medium:/);
  });
});
