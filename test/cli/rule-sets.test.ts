import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import * as lib from '../../src';
import { HybridValidation, Manifest, PluginValidationContext, RULE_SETS } from '../../src';
import { synthObjects } from '../support/synth';
import { FAKE, fakeKit } from '../support/third-infrastructure';

// The compiled command, as `npx cdk-hybrid-windows` runs it (`npm test` runs `tsc -b` first).
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const HELM = join(__dirname, 'fixtures', 'helm-web.yaml');
const AFFINITY = join(__dirname, 'eks-affinity.yaml');
const TERRAFORM = join(__dirname, 'inputs', 'eks.tf.json');

function run(args: string[], cwd = ROOT): { status: number | null; stdout: string[]; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

/** docs/rules.md's rows, as `rule set` pairs: each section's `rule set \`name\`` and its table's rule names. */
function documented(): Array<{ rule: string; set: string; description: string }> {
  let set = '';
  return readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8').split('\n').flatMap((line) => {
    set = /, rule set `([\w-]+)`:/.exec(line)?.[1] ?? set;
    const row = /^\| `([\w-]+)` \| \w+ \| (.+?) \| /.exec(line);
    return row ? [{ rule: row[1], set, description: row[2].replace(/\\\|/g, '|') }] : [];
  });
}

/** The third infrastructure's objects, its Windows worker config given AWS's provisioner and no firewall command. */
function brokenFakeYaml(): string {
  const objects = synthObjects(fakeKit(lib).fakeApp());
  const spec = objects.find((o) => o.kind === 'K0sWorkerConfigTemplate' && o.metadata.name.startsWith('edge-win'))!.spec.template.spec;
  spec.provisioner = { platform: 'windows', type: 'powershell-xml' };
  delete spec.preK0sCommands;
  return objects.map((o) => stringify(o)).join('---\n');
}

describe('one rule-set table (RULE_SETS)', () => {
  test('holds every registry once, each rule in one set, in the order the defaults apply them', () => {
    expect(RULE_SETS.map((s) => s.registry)).toEqual(['CLUSTER_RULES', 'WORKLOAD_RULES', 'SCHEMA_RULE', 'EKS_WORKLOAD_RULES', 'AWS_RULES', 'EKS_RULES', 'AKS_RULES', 'GKE_RULES']);
    expect(RULE_SETS.find((s) => s.registry === 'CLUSTER_RULES')!.rules).toBe(lib.CLUSTER_RULES);
    expect(RULE_SETS.filter((s) => s.input === 'terraform').flatMap((s) => s.rules)).toEqual([...lib.TERRAFORM_RULES]);
    // validateManifests' default: the sets applied by default, then the platform's.
    const objects = parseAllDocuments(readFileSync(AFFINITY, 'utf8')).map((d) => d.toJS() as Manifest).filter(Boolean);
    expect(lib.validateManifests(objects)).toEqual([]);
    expect(lib.validateManifests(objects, { platform: lib.WindowsPlatform.EKS }).map((v) => v.rule)).toEqual(['eks-pod-address']);
  });

  (existsSync(BIN) ? describe : describe.skip)('in the command', () => {
    test('validate --list-rules prints every rule of docs/rules.md with its set and description, and the table\'s', () => {
      const { status, stdout } = run(['validate', '--list-rules']);
      expect(status).toBe(0);
      const listed = stdout.map((l) => /^(\S+) +(\S+) +(.+)$/.exec(l)!).map(([, rule, set, description]) => ({ rule, set, description }));
      const doc = documented();
      expect(doc.length).toBeGreaterThan(60);
      expect(listed).toEqual(doc);
      expect(listed).toEqual(RULE_SETS.flatMap((s) => s.rules.map((r) => ({ rule: r.name, set: s.name, description: r.description }))));
      // The same as JSON, with each rule's registry, scope and upstream source.
      const json = JSON.parse(run(['validate', '--list-rules', '--format', 'json']).stdout.join('\n'));
      expect(json.map((r: { rule: string }) => r.rule)).toEqual(doc.map((r) => r.rule));
      expect(json[0]).toEqual({ rule: 'unique-names', set: 'cluster', registry: 'CLUSTER_RULES', scope: 'graph', description: lib.CLUSTER_RULES[0].description, source: lib.CLUSTER_RULES[0].source });
    });

    test('a reader that stops early (validate --list-rules | head) ends the run quietly, with the status so far', async () => {
      // The pipe's reading end is closed before the command writes: its first line meets EPIPE.
      const child = spawn(process.execPath, [BIN, 'validate', '--list-rules'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += String(d)));
      const status = await new Promise((done) => child.on('close', done));
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    });

    test('--rules takes every set of the table: eks applies the EKS rules without --platform; an unknown set names them all', () => {
      expect(run(['validate', AFFINITY]).status).toBe(0);
      expect(run(['validate', '--rules', 'workloads,eks', AFFINITY]).stdout).toEqual([expect.stringMatching(/\[eks-pod-address\]$/)]);
      expect(run(['validate', '--rules', 'kubeconform', AFFINITY])).toMatchObject({ status: 2, stderr: expect.stringContaining('--rules kubeconform: the rule sets are cluster, workloads, schema, eks, terraform') });
      // terraform is a set of the table too: alone it leaves the workloads unjudged.
      expect(run(['validate', '--rules', 'terraform', HELM]).status).toBe(0);
    });

    test('SARIF\'s tool.driver.rules carry each rule\'s description, upstream source and set', () => {
      const { stdout } = run(['validate', '--platform', 'k0smotron-aws', '--format', 'sarif', HELM, TERRAFORM]);
      const rules = JSON.parse(stdout.join('\n')).runs[0].tool.driver.rules as Array<{ id: string; shortDescription: { text: string }; fullDescription: { text: string }; helpUri: string; help: { text: string }; properties: { ruleSet: string; source: string } }>;
      expect(rules.length).toBeGreaterThan(1);
      const byName = new Map(RULE_SETS.flatMap((s) => s.rules.map((r) => [r.name, { rule: r, set: s }] as const)));
      for (const r of rules) {
        const { rule, set } = byName.get(r.id)!;
        expect([r.id, r.shortDescription.text]).toEqual([r.id, rule.description]);
        expect(r.fullDescription.text).toBe(`${rule.description}. It encodes ${rule.source}.`);
        expect(r.properties).toEqual({ ruleSet: set.name, source: rule.source });
        expect(r.helpUri).toMatch(/^https:\/\/github\.com\/cdk-hybrid-windows\/cdk-hybrid-windows\/blob\/main\/docs\/rules\.md#[a-z0-9-]+$/);
        expect(r.help.text).toContain(rule.source);
      }
      expect(rules.find((r) => r.id === 'windows-toleration')!.helpUri).toMatch(/#workloads$/);
      expect(rules.map((r) => r.properties.ruleSet)).toContain('terraform');
    });

    test('--infrastructures and the config key make a third infrastructure\'s objects judged like a built-in one\'s', () => {
      const dir = mkdtempSync(join(tmpdir(), 'infrastructures-'));
      writeFileSync(join(dir, '.git'), 'gitdir: elsewhere\n');
      writeFileSync(join(dir, 'fake.yaml'), brokenFakeYaml());
      writeFileSync(join(dir, 'fake-infrastructure.json'), JSON.stringify([FAKE]));
      writeFileSync(join(dir, 'fake-infrastructure.js'), `module.exports = { FAKE: ${JSON.stringify(FAKE)} };`);
      const windowsPool = (out: string[]) => out.filter((l) => l.endsWith('[windows-pool]'));
      // Told nothing, the rules cannot read the fake machines as Windows workers of an infrastructure they know.
      expect(windowsPool(run(['validate', 'fake.yaml'], dir).stdout)).toEqual([]);
      const told = run(['validate', '--infrastructures', 'fake-infrastructure.json', 'fake.yaml'], dir);
      expect(told.status).toBe(1);
      expect(windowsPool(told.stdout)).toEqual([
        expect.stringMatching(/K0sWorkerConfigTemplate edge-win-\w+: .*Windows workers on the fake cloud need \{"platform":"windows","type":"powershell"\}/),
        expect.stringMatching(/preK0sCommands open no inbound TCP 10250/),
      ]);
      expect(run(['validate', '--infrastructures', 'fake-infrastructure.js', 'fake.yaml'], dir).stdout).toEqual(told.stdout);
      writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'infrastructures: fake-infrastructure.json\n');
      expect(run(['validate', 'fake.yaml'], dir).stdout).toEqual(told.stdout);
      writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), stringify({ infrastructures: [FAKE] }));
      expect(run(['validate', 'fake.yaml'], dir).stdout).toEqual(told.stdout);
      // A declaration that is not one is input the command cannot take.
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...FAKE, windowsProvisioner: 'batch' }));
      expect(run(['validate', '--infrastructures', 'bad.json', 'fake.yaml'], dir)).toMatchObject({
        status: 2, stderr: expect.stringMatching(/^--infrastructures bad\.json windowsProvisioner is "batch", not one of "powershell-xml", "powershell", "cloud-config"\. Fix: declare name, platform/),
      });
      // One that takes a built-in infrastructure's kinds, too.
      writeFileSync(join(dir, 'aws.json'), JSON.stringify({ ...FAKE, clusterKind: 'AWSCluster' }));
      expect(run(['validate', '--infrastructures', 'aws.json', 'fake.yaml'], dir)).toMatchObject({
        status: 2, stderr: '--infrastructures: AWSCluster is the kind of two infrastructures, "AWS" and "the fake cloud": give each its own kinds, or pass one of them\n',
      });
      expect(run(['validate', '--infrastructures', 'missing.json', 'fake.yaml'], dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('--infrastructures missing.json: cannot be read (ENOENT)') });
      rmSync(dir, { recursive: true, force: true });
    });

    test('docs/validate.md\'s declaration is one the command takes', () => {
      const doc = readFileSync(join(ROOT, 'docs', 'validate.md'), 'utf8');
      const example = /```yaml\n(# edge-infrastructure\.yaml\n[\s\S]*?)```/.exec(doc.slice(doc.indexOf('## Infrastructures')))![1];
      const dir = mkdtempSync(join(tmpdir(), 'infrastructures-doc-'));
      writeFileSync(join(dir, 'edge-infrastructure.yaml'), example);
      expect(run(['validate', '--infrastructures', join(dir, 'edge-infrastructure.yaml'), AFFINITY])).toMatchObject({ status: 0, stderr: '0 violations in 1 object\n' });
      writeFileSync(join(dir, 'edge-infrastructure.yaml'), example.replace('kubeletPortOpenedBy', 'kubeletPortOpenBy'));
      expect(run(['validate', '--infrastructures', join(dir, 'edge-infrastructure.yaml'), AFFINITY]).stderr).toContain('has no field kubeletPortOpenBy');
      rmSync(dir, { recursive: true, force: true });
    });
  });
});

describe('the cdk8s plugin reads the same table', () => {
  function context(manifests: Manifest[]) {
    const rules: string[] = [];
    let status: string | undefined;
    const ctx: PluginValidationContext = {
      manifests: ['dist/app.k8s.yaml'],
      parseManifest: () => manifests,
      report: { addViolation: (v) => rules.push(v.ruleName), submit: (s) => { status = s; } },
    };
    return { ctx, rules, status: () => status };
  }

  test('an unknown rule set is refused, naming the table\'s', async () => {
    await expect(new HybridValidation({ ruleSets: ['kubeconform' as 'eks'] }).validate(context([]).ctx)).rejects.toThrow('HybridValidation ruleSets kubeconform: the rule sets are cluster, workloads, schema, eks');
  });

  test('infrastructures: declarations written in cdk8s.yaml make a third infrastructure\'s objects judged', async () => {
    const objects = parseAllDocuments(brokenFakeYaml()).map((d) => d.toJS() as Manifest);
    const untold = context(objects);
    await new HybridValidation().validate(untold.ctx);
    expect(untold.rules.filter((r) => r === 'windows-pool')).toEqual([]);
    const told = context(objects);
    await new HybridValidation({ infrastructures: [FAKE] }).validate(told.ctx);
    expect(told.status()).toBe('failure');
    expect(told.rules.filter((r) => r === 'windows-pool')).toEqual(['windows-pool', 'windows-pool']);
    await expect(new HybridValidation({ infrastructures: [{ ...FAKE, placement: { by: 'racks' } } as never] }).validate(context([]).ctx))
      .rejects.toThrow('HybridValidation infrastructures[0] placement is {"by":"racks"}, not { by: "zones" } or { by: "hosts", hostKind }');
  });
});
