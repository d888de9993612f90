import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { parseAllDocuments } from 'yaml';
import { WindowsPlatform, adviseManifests, validateManifests } from '../../src';
import { GKE_WINDOWS_NODE_TAINT, WINDOWS_SUPPORT, windowsNodeTaint } from '../../src/platform/support';
import { WindowsVersion, taintArgument } from '../../src/platform/windows';

// The compiled command, as `npx cdk-hybrid-windows` runs it (`npm test` runs `tsc -b` first).
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const FIXTURES = join(__dirname, 'fixtures');
const INPUTS = join(__dirname, 'inputs');
/** `helm template` output: a `---` before every document and `# Source:` comments. */
const HELM = join(FIXTURES, 'helm-web.yaml');
const VALID = join(FIXTURES, 'valid.yaml');
/** Outside FIXTURES, which a test reads as one directory. */
const AFFINITY = join(__dirname, 'eks-affinity.yaml');
/** Issue 23's Windows Deployment: selects Windows by nodeSelector and spec.os, tolerates nothing. */
const NO_TOLERATION = join(INPUTS, 'windows-no-toleration.yaml');

function run(args: string[], input?: string | Buffer, cwd = ROOT): { status: number | null; stdout: string[]; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

/** A scratch folder with a `.git`, so that config lookup stops there and never reads the project's. */
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'validate-'));
  writeFileSync(join(dir, '.git'), 'gitdir: elsewhere\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

(existsSync(BIN) ? describe : describe.skip)('cdk-hybrid-windows validate', () => {
  test('a Helm-style stream on standard input: the violations validateManifests reports, one line each with line, column, template and rule, exit 1', () => {
    const text = readFileSync(HELM, 'utf8');
    const { status, stdout, stderr } = run(['validate', '--platform', 'k0smotron-aws', '-'], text);
    expect(status).toBe(1);
    const objects = parseAllDocuments(text).map((d) => d.toJS());
    const options = { platform: WindowsPlatform.K0SMOTRON_AWS };
    const expected = validateManifests(objects, options).map((v) => `${v.kind} ${v.namespace}/${v.name}: ${v.message}`);
    expect(expected.length).toBeGreaterThan(3);
    // Each line is `<file>:<line>:<column> <Kind> <namespace/name> (<template>): <what>. Fix: <how>. [<rule>]`, in validateManifests' order.
    expect(stdout.map((l) => l.replace(/^<stdin>:\d+:\d+ /, '').replace(/ \(web\/templates\/\w+\.yaml\)/, '').replace(/ \[[\w-]+\]$/, ''))).toEqual(expected);
    // The Deployment's pod spec (line 22 of the stream) lacks the toleration; the Job's emptyDir medium is at line 53, column 22.
    expect(stdout).toContain('<stdin>:22:5 Deployment apps/web (web/templates/deployment.yaml): spec.template.spec.tolerations: must tolerate the Windows node taint os=windows:NoSchedule, or the pod stays Pending. Fix: add {key: os, operator: Equal, value: windows, effect: NoSchedule} to spec.template.spec.tolerations. [windows-toleration]');
    expect(stdout).toContain('<stdin>:53:22 Job apps/migrate (web/templates/job.yaml): spec.template.spec.volumes[0].emptyDir.medium: Windows cannot back an emptyDir with memory; drop the medium (disk-backed emptyDir works). Fix: remove spec.template.spec.volumes[0].emptyDir.medium. [windows-memory-emptydir]');
    expect(stdout.every((l) => /^<stdin>:\d+:\d+ \w+ [\w-]+\/[\w-]+ \(web\/templates\/\w+\.yaml\): .+\. Fix: .+\. \[[\w-]+\]$/.test(l))).toBe(true);
    // What the rules only recommend goes to standard error, as adviseManifests gives it.
    const advice = adviseManifests(objects, options);
    expect(advice.length).toBeGreaterThan(0);
    const adviceLines = stderr.split('\n').filter((l) => l.startsWith('advice: '));
    expect(adviceLines.map((l) => l.replace(/^advice: <stdin>:\d+:\d+ /, '').replace(/ \(web\/templates\/\w+\.yaml\)/, '').replace(/ \[[\w-]+\]$/, '')))
      .toEqual(advice.map((v) => `${v.kind} ${v.namespace}/${v.name}: ${v.message}`));
    expect(stderr.endsWith(`${expected.length} violations in 3 objects\n`)).toBe(true);
  });

  test('valid input: exit 0 and nothing on standard output', () => {
    expect(run(['validate', '-'], readFileSync(VALID, 'utf8'))).toEqual({ status: 0, stdout: [], stderr: '0 violations in 2 objects\n' });
    expect(run(['validate', VALID]).status).toBe(0);
  });

  test('files and directories are one set of objects, named by file', () => {
    const { status, stdout } = run(['validate', FIXTURES]);
    expect(status).toBe(1);
    expect(stdout[0].startsWith(`${HELM}:42:5 Job apps/migrate (web/templates/job.yaml): `)).toBe(true);
    expect(run(['validate', VALID, HELM]).stdout).toEqual(stdout);
  });

  test('--rules picks the rule sets: the cluster rules alone pass the workloads', () => {
    expect(run(['validate', '--rules', 'cluster', HELM]).status).toBe(0);
    expect(run(['validate', '--rules', 'workloads', HELM]).status).toBe(1);
    const unknown = run(['validate', '--rules', 'kubeconform', HELM]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--rules kubeconform: the rule sets are cluster, workloads, schema, eks, terraform');
  });

  describe('the platform decides the taint Windows pods must tolerate', () => {
    test('the Windows Deployment that tolerates nothing passes with no platform and with --windows-taint none', () => {
      expect(run(['validate', NO_TOLERATION])).toMatchObject({ status: 0, stdout: [] });
      expect(run(['validate', '--windows-taint', 'none', NO_TOLERATION])).toMatchObject({ status: 0, stdout: [] });
      // none overrides a platform's taint (a cluster whose Windows nodes were left untainted).
      expect(run(['validate', '--platform', 'k0smotron-aws', '--windows-taint', 'none', NO_TOLERATION])).toMatchObject({ status: 0, stdout: [] });
    });

    /**
     * The taint each platform's Windows nodes carry. RKE2's carry none: a Windows agent registers
     * with the taints of its node-taint option only (rancher/rke2 v1.35.7+rke2r1
     * pkg/cli/cmds/agent.go takes k3s's node-taint flag; k3s-io/k3s pkg/daemons/agent/agent_windows.go
     * kubeletArgs sets register-with-taints from it alone), and RKE2's own mixed-OS test
     * (tests/e2e/mixedos, resource_files/windows_app_deployment.yaml, v1.35.7+rke2r1) runs a Windows
     * Deployment that tolerates nothing. k3s has no Windows nodes at all (the next test).
     */
    const TAINTS: Array<[string, string]> = [
      ['k0smotron-aws', 'os=windows:NoSchedule'],
      ['k0smotron-remote', 'os=windows:NoSchedule'],
      ['eks', 'os=windows:NoSchedule'],
      ['aks', 'os=windows:NoSchedule'],
      ['gke', 'node.kubernetes.io/os=windows:NoSchedule'],
      ['rke2', 'none'],
      ['capz', 'none'],
    ];

    test.each(TAINTS)('with --platform %s the Windows nodes carry %s: the command names it, or passes the pod', (platform, taint) => {
      const own = windowsNodeTaint(platform as WindowsPlatform);
      expect(own ? taintArgument(own) : 'none').toBe(taint);
      const { status, stdout } = run(['validate', '--platform', platform, NO_TOLERATION]);
      if (own === undefined) {
        expect({ status, stdout }).toEqual({ status: 0, stdout: [] });
        return;
      }
      expect(status).toBe(1);
      expect(stdout).toEqual([`${NO_TOLERATION}:14:5 Deployment apps/iis: spec.template.spec.tolerations: must tolerate the Windows node taint ${taint}, or the pod stays Pending. Fix: add {key: ${own.key}, operator: Equal, value: windows, effect: NoSchedule} to spec.template.spec.tolerations. [windows-toleration]`]);
    });

    test('with --platform k3s the Windows Deployment gets one finding, that k3s runs no Windows nodes (k3s-io/k3s#114), and a Linux one passes', () => {
      const { status, stdout } = run(['validate', '--platform', 'k3s', NO_TOLERATION]);
      expect(status).toBe(1);
      // At the nodeSelector (line 17), citing the support matrix's k3s row; the fix names the fields.
      expect(stdout).toEqual([`${NO_TOLERATION}:17:9 Deployment apps/iis: spec.template.spec.nodeSelector.kubernetes.io/os: aims the pod at Windows nodes, and k3s runs none, so it is never scheduled; ${WINDOWS_SUPPORT.k3s[WindowsVersion.SERVER_2022].source}. Fix: deploy it to a platform that runs Windows nodes (k0smotron-aws, eks, k0smotron-remote, aks, gke, rke2, capz), or run it on Linux: set spec.template.spec.nodeSelector.kubernetes.io/os: linux and remove spec.template.spec.os. [windows-nodes]`]);
      expect(stdout[0]).toContain('k3s-io/k3s#114');
      // Tolerating every taint changes nothing: there is no Windows node.
      const tolerant = readFileSync(NO_TOLERATION, 'utf8').replace('      nodeSelector:', '      tolerations: [{operator: Exists}]\n      nodeSelector:');
      expect(run(['validate', '--platform', 'k3s', '-'], tolerant).stdout).toEqual([expect.stringContaining('[windows-nodes]')]);
      const linux = readFileSync(NO_TOLERATION, 'utf8').replace('      os: {name: windows}\n', '').replace('kubernetes.io/os: windows', 'kubernetes.io/os: linux').replace(/image: .*/, 'image: nginx:1.27');
      expect(run(['validate', '--platform', 'k3s', '-'], linux)).toMatchObject({ status: 0, stdout: [] });
      // Aimed by node affinity: the finding is there, and only the affinity's OS expressions are to go.
      expect(run(['validate', '--platform', 'k3s', AFFINITY]).stdout).toEqual([expect.stringMatching(/^\S+:13:11 Deployment apps\/iis: spec\.template\.spec\.affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution: aims the pod at Windows nodes.+ and remove the OS expressions of spec\.template\.spec\.affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution, spec\.template\.spec\.os\. \[windows-nodes\]$/)]);
    });

    test('--windows-taint names another taint; a malformed one exits 2', () => {
      expect(run(['validate', '--windows-taint', 'sku=windows:NoExecute', NO_TOLERATION]).stdout).toEqual([expect.stringContaining('must tolerate the Windows node taint sku=windows:NoExecute')]);
      const bad = run(['validate', '--windows-taint', 'windows', NO_TOLERATION]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe('--windows-taint windows: write the taint as key=value:Effect (NoSchedule, PreferNoSchedule or NoExecute), or none\n');
    });

    test('a GKE toleration satisfies gke and not the library\'s clusters', () => {
      const text = readFileSync(NO_TOLERATION, 'utf8').replace('      nodeSelector:', `      tolerations: [{key: ${GKE_WINDOWS_NODE_TAINT.key}, operator: Exists}]\n      nodeSelector:`);
      expect(run(['validate', '--platform', 'gke', '-'], text).status).toBe(0);
      expect(run(['validate', '--platform', 'aks', '-'], text).status).toBe(1);
    });

    test('every platform --help lists is accepted, and every WindowsPlatform is listed', () => {
      const help = run(['validate', '--help']).stdout.join('\n');
      const listed = /--platform <name>\s+where the workloads run: ([\w\s,-]+)\./.exec(help)![1].split(',').map((p) => p.trim());
      expect(listed.sort()).toEqual(Object.values(WindowsPlatform).sort());
      // Each is judged (0 or 1 by the tables above), never refused as input (2).
      for (const platform of listed) expect(run(['validate', '--platform', platform, NO_TOLERATION]).status).toBe(TAINTS.some(([p, t]) => p === platform && t === 'none') ? 0 : 1);
    });
  });

  test('--platform eks adds the rules that hold on EKS only: a Windows pod selected by node affinity gets no address there', () => {
    const affinity = readFileSync(AFFINITY, 'utf8');
    expect(run(['validate', '-'], affinity).status).toBe(0);
    const eks = run(['validate', '--platform', 'eks', '-'], affinity);
    expect(eks.status).toBe(1);
    expect(eks.stdout).toEqual([expect.stringMatching(/^<stdin>:\d+:\d+ Deployment apps\/iis: spec\.template\.spec\.nodeSelector\.kubernetes\.io\/os: must be "windows" on EKS: .+\. Fix: .+\. \[eks-pod-address\]$/)]);
    // The EKS rules are workload rules: --rules cluster leaves them out.
    expect(run(['validate', '--platform', 'eks', '--rules', 'cluster', '-'], affinity).status).toBe(0);
    const unknown = run(['validate', '--platform', 'openshift', '-'], affinity);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`--platform openshift: the platforms are ${Object.values(WindowsPlatform).join(', ')}`);
  });

  describe('input as kubectl takes it', () => {
    test('a folder cdk8s synth wrote: its construct-metadata.json is said and passed over, the same file named is refused', () => {
      const dir = repo({
        'app.k8s.yaml': readFileSync(VALID, 'utf8'),
        // What cdk8s writes beside the manifests when cdk8s-cli asks it to record construct metadata (cdk8s 2.70 lib/app.js writeConstructMetadata; cdk8s-cli 2.207 lib/util.js CDK8S_RECORD_CONSTRUCT_METADATA).
        'construct-metadata.json': JSON.stringify({ version: '1.0.0', resources: {} }),
      });
      const folder = run(['validate', dir]);
      expect(folder.status).toBe(0);
      expect(folder.stderr).toContain(`${join(dir, 'construct-metadata.json')}: skipped, a JSON file without apiVersion and kind`);
      const named = run(['validate', join(dir, 'construct-metadata.json')]);
      expect(named.status).toBe(2);
    });

    test('YAML 1.1 scalars (sigs.k8s.io/yaml, goyaml.v2 resolve.go): hostNetwork: yes is true, port 010 is 8', () => {
      const { status, stdout } = run(['validate', join(INPUTS, 'kubectl-scalars.yaml')]);
      expect(status).toBe(1);
      expect(stdout).toEqual([
        expect.stringMatching(/:22:3 Pod apps\/host: spec\.hostNetwork: needs HostProcess containers on Windows/),
        expect.stringMatching(/:11:7 Service apps\/web: spec\.ports\[1\] repeats port 8\/TCP of spec\.ports\[0\]/),
      ]);
      // Under YAML 1.2 (the yaml package's default), the same file holds neither problem, and a
      // string where the API wants a boolean (which the core schemas refuse): not the object kubectl sends.
      const objects = parseAllDocuments(readFileSync(join(INPUTS, 'kubectl-scalars.yaml'), 'utf8')).map((d) => d.toJS());
      expect(validateManifests(objects).map((v) => `${v.rule} ${v.field}`)).toEqual(['schema spec.hostNetwork']);
    });

    test('v1 List items are named by their own kind and name, at their own line', () => {
      const { stdout } = run(['validate', join(INPUTS, 'list.yaml')]);
      expect(stdout).toEqual([expect.stringMatching(/list\.yaml:25:65 DaemonSet apps\/agent: spec\.template\.spec\.containers\[0\]\.volumeMounts\[0\]\.mountPropagation: Windows does not support mount propagation/)]);
      const json = JSON.parse(run(['validate', '--format', 'json', join(INPUTS, 'list.yaml')]).stdout.join('\n'));
      expect(json.findings[0]).toMatchObject({ kind: 'DaemonSet', name: 'agent', namespace: 'apps', line: 8, column: 5 });
    });

    test('non-Kubernetes, binary and missing input exit 2 with one line saying why', () => {
      expect(run(['validate', '-'], 'name: x\nvalue: 1\n')).toEqual({ status: 2, stdout: [], stderr: '<stdin>:1:1 not a Kubernetes object: apiVersion and kind not set, which kubectl refuses\n' });
      expect(run(['validate', '-'], 'just a string\n')).toMatchObject({ status: 2, stderr: expect.stringMatching(/^<stdin>:1:1 not a Kubernetes object: the document is the string "just a string"/) });
      expect(run(['validate', '-'], 'apiVersion: v1\nkind: List\nitems:\n  - metadata: {name: x}\n')).toMatchObject({ status: 2, stderr: expect.stringContaining('(items[0] of a List): kind not set') });
      expect(run(['validate', '-'], Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00]))).toEqual({ status: 2, stdout: [], stderr: '<stdin>: binary data, not YAML or JSON; name the manifests (or - for standard input)\n' });
      const missing = join(FIXTURES, 'missing.yaml');
      expect(run(['validate', missing])).toEqual({ status: 2, stdout: [], stderr: `${missing}: no such file or directory\n` });
      const broken = run(['validate', '-'], 'kind: Deployment\nmetadata: {name: [\n');
      expect(broken.status).toBe(2);
      expect(broken.stderr).toMatch(/^<stdin>:3:1 YAML error: /);
      expect(run(['validate']).status).toBe(2);
      expect(run([]).status).toBe(2);
    });

    test('a *.tf.json file, or a document shaped like Terraform JSON, runs the Terraform rules (validateTerraform)', () => {
      const tf = join(INPUTS, 'eks.tf.json');
      const { status, stdout } = run(['validate', tf]);
      expect(status).toBe(1);
      expect(stdout).toEqual([
        `${tf}:10:9 aws_eks_node_group windows: instance type t3.small has 2 GiB of memory; Windows workers need at least 8 GiB (the OS takes about 3.5). Fix: pick a larger type, e.g. t3.large or m6i.large. [eks-node-group]`,
        expect.stringMatching(new RegExp(`^${tf.replace(/[.]/g, '\\.')}:6:7 aws_eks_node_group windows: the node group lacks the taint os=windows:NO_SCHEDULE`)),
      ]);
      // The same JSON on standard input is recognised by its shape.
      expect(run(['validate', '-'], readFileSync(tf, 'utf8')).stdout.map((l) => l.replace(/^<stdin>/, tf))).toEqual(stdout);
      expect(run(['validate', '--rules', 'cluster,workloads', tf]).status).toBe(0);
    });
  });

  describe('formats', () => {
    test('--format json: rule, file, line, column, kind, namespace, name, what, fix and severity for every finding', () => {
      const { status, stdout } = run(['validate', '--platform', 'eks', '--format', 'json', HELM]);
      expect(status).toBe(1);
      const report = JSON.parse(stdout.join('\n'));
      expect(report.violations).toBe(6);
      for (const f of report.findings) {
        expect(f).toEqual(expect.objectContaining({
          rule: expect.any(String), file: HELM, line: expect.any(Number), column: expect.any(Number), kind: expect.any(String),
          namespace: 'apps', name: expect.any(String), what: expect.any(String), fix: expect.any(String), severity: expect.stringMatching(/^(violation|advice)$/),
          template: expect.stringMatching(/^web\/templates\//),
        }));
      }
      expect(report.findings).toContainEqual(expect.objectContaining({
        rule: 'windows-memory-emptydir', severity: 'violation', kind: 'Job', name: 'migrate', line: 35, column: 1, fieldLine: 53, fieldColumn: 22,
        field: 'spec.template.spec.volumes[0].emptyDir.medium', what: expect.stringMatching(/^spec\.template\.spec\.volumes\[0\]\.emptyDir\.medium: Windows cannot back/),
      }));
      expect(report.findings.filter((f: { severity: string }) => f.severity === 'advice').length).toBeGreaterThan(0);
    });

    test('--format sarif validates against the SARIF 2.1.0 schema', () => {
      // The OASIS SARIF 2.1.0 schema as @microsoft/jest-sarif ships it (draft-04).
      const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
      const validate = new Ajv({
        strict: false, allErrors: true, unicodeRegExp: false,
        // The formats the schema uses, checked as RFC 3986 and RFC 3339 would (ajv-formats is not installed).
        formats: {
          'uri': (u: string) => URL.canParse(u),
          'uri-reference': (u: string) => !/[\s<>"{}|\\^`]/.test(u),
          'date-time': (d: string) => !Number.isNaN(Date.parse(d)),
        },
      }).compile(schema);
      const dir = repo({ 'suppressed.yaml': readFileSync(NO_TOLERATION, 'utf8').replace('  namespace: apps', '  namespace: apps\n  annotations:\n    ignore-rule.cdk-hybrid-windows.io/windows-toleration: "tolerated by the RuntimeClass the admission webhook adds"') });
      const { stdout } = run(['validate', '--platform', 'gke', '--format', 'sarif', HELM, join(dir, 'suppressed.yaml')]);
      const log = JSON.parse(stdout.join('\n'));
      expect(validate(log)).toBe(true);
      expect(validate.errors ?? []).toEqual([]);
      const results = log.runs[0].results;
      expect(results.filter((r: { level: string }) => r.level === 'error').length).toBeGreaterThan(3);
      expect(results).toContainEqual(expect.objectContaining({ ruleId: 'windows-toleration', suppressions: [{ kind: 'inSource', justification: expect.stringContaining('tolerated by the RuntimeClass') }] }));
      expect(results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: expect.stringMatching(/helm-web\.yaml$/) }, region: { startLine: expect.any(Number), startColumn: expect.any(Number) } });
      // A broken log fails the same schema: the test can fail.
      expect(validate({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);
      rmSync(dir, { recursive: true, force: true });
    });

    test('--format github: ::error lines with file, line, column and the rule; advice as notices', () => {
      const { status, stdout } = run(['validate', '--platform', 'k0smotron-aws', '--format', 'github', HELM]);
      expect(status).toBe(1);
      expect(stdout).toContain(`::error file=${HELM},line=53,col=22,title=windows-memory-emptydir::Job apps/migrate: spec.template.spec.volumes[0].emptyDir.medium: Windows cannot back an emptyDir with memory; drop the medium (disk-backed emptyDir works). Fix: remove spec.template.spec.volumes[0].emptyDir.medium.`);
      expect(stdout.every((l) => /^::(error|notice) file=[^,]+,line=\d+,col=\d+,title=[\w-]+::\w+ /.test(l))).toBe(true);
      expect(stdout.some((l) => l.startsWith('::notice '))).toBe(true);
    });

    test('--format junit: one failed test case per violation', () => {
      const { stdout } = run(['validate', '--platform', 'k0smotron-aws', '--format', 'junit', HELM]);
      const xml = stdout.join('\n');
      expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="cdk-hybrid-windows validate" tests="5" failures="5" skipped="0">/);
      expect(xml.match(/<testcase /g)).toHaveLength(5);
      expect(xml.match(/<failure message="[^"]+" type="(windows-[\w-]+)">/g)).toHaveLength(5);
      expect(xml).toContain('name="Job apps/migrate [windows-memory-emptydir] spec.template.spec.volumes[0].emptyDir.medium"');
      // Well-formed enough for a strict reader: every element closed, attributes escaped.
      expect(xml.match(/<testcase /g)!.length).toBe(xml.match(/<\/testcase>/g)!.length);
      // A passing run is one passing case.
      expect(run(['validate', '--format', 'junit', VALID]).stdout).toContain('    <testcase classname="cdk-hybrid-windows" name="2 objects pass every rule"/>');
    });

    test('--version prints the package version; --format names its choices', () => {
      const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
      expect(run(['validate', '--version'])).toEqual({ status: 0, stdout: [version], stderr: '' });
      expect(run(['--version']).stdout).toEqual([version]);
      expect(run(['validate', '--format', 'xml', VALID])).toMatchObject({ status: 2, stderr: '--format xml: the formats are text, json, sarif, junit, github\n' });
    });
  });

  describe('suppressions', () => {
    const annotated = readFileSync(NO_TOLERATION, 'utf8').replace('  namespace: apps', '  namespace: apps\n  annotations:\n    ignore-rule.cdk-hybrid-windows.io/windows-toleration: "the admission webhook adds the toleration"');

    test('an annotation suppresses its rule on its object: the run passes, and --show-suppressed reports it with the reason', () => {
      expect(run(['validate', '--platform', 'eks', '-'], annotated)).toEqual({ status: 0, stdout: [], stderr: '0 violations in 1 object, 1 suppressed\n' });
      const shown = run(['validate', '--platform', 'eks', '--show-suppressed', '-'], annotated);
      expect(shown.status).toBe(0);
      expect(shown.stderr).toContain('suppressed (annotation ignore-rule.cdk-hybrid-windows.io/windows-toleration: the admission webhook adds the toleration): <stdin>:');
      // Another rule's annotation suppresses nothing.
      expect(run(['validate', '--platform', 'eks', '-'], annotated.replace('/windows-toleration:', '/service-ports:')).status).toBe(1);
    });

    test('a config file at the repository root sets the platform, skips rules and ignores paths', () => {
      const dir = repo({ 'app.yaml': readFileSync(NO_TOLERATION, 'utf8'), 'vendor.yaml': readFileSync(HELM, 'utf8') });
      writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'platform: gke\n');
      const gke = run(['validate', 'app.yaml'], undefined, dir);
      expect(gke.stdout).toEqual([expect.stringContaining('node.kubernetes.io/os=windows:NoSchedule')]);
      // The command line wins over the file.
      expect(run(['validate', '--platform', 'aks', 'app.yaml'], undefined, dir).stdout).toEqual([expect.stringContaining('taint os=windows:NoSchedule')]);
      writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'platform: gke\nskipRules:\n  - rule: windows-toleration\n    reason: GKE pods get their tolerations from a mutating webhook\nignorePaths: [vendor.yaml]\n');
      expect(run(['validate', '.'], undefined, dir)).toEqual({ status: 0, stdout: [], stderr: '0 violations in 1 object, 1 suppressed\n' });
      expect(run(['validate', '--show-suppressed', '--format', 'json', '.'], undefined, dir).stdout.join('\n')).toContain('"suppressed": "GKE pods get their tolerations from a mutating webhook"');
      // A typo in a rule name or a key is refused, not ignored.
      writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'skipRules: [windows-tolerations]\n');
      expect(run(['validate', '.'], undefined, dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('skipRules: no rule is named windows-tolerations') });
      writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'platfrom: gke\n');
      expect(run(['validate', '.'], undefined, dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('unknown key platfrom') });
      // --config names another file.
      writeFileSync(join(dir, 'ci.yaml'), 'platform: k0smotron-aws\n');
      expect(run(['validate', '--config', 'ci.yaml', 'app.yaml'], undefined, dir).stdout).toEqual([expect.stringContaining('taint os=windows:NoSchedule')]);
      rmSync(dir, { recursive: true, force: true });
    });
  });
});
