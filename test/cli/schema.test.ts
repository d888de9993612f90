import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateManifests } from '../../src';
import { parseYamlStream } from '../../src/cli/kubectl-yaml';
import { schemaRule } from '../../src/rules/schema/rule';
import { KUBERNETES_MINORS, kubernetesMinorOf } from '../../src/rules/schema/versions';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'lib', 'src', 'cli', 'main.js');
const VALID = readFileSync(join(__dirname, 'fixtures', 'valid.yaml'), 'utf8');

function run(args: string[], input?: string, cwd = ROOT): { status: number | null; stdout: string[]; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', cwd });
  return { status: r.status, stdout: r.stdout.split('\n').filter((l) => l !== ''), stderr: r.stderr };
}

/** A Windows Deployment that passes every rule, to break one field at a time. */
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: apps
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      os: {name: windows}
      nodeSelector: {kubernetes.io/os: windows}
      containers:
        - name: web
          image: mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022
          imagePullPolicy: IfNotPresent
          env:
            - name: FEATURE
              value: "on"
          resources:
            requests: {cpu: 500m, memory: 1Gi}
`;

/** A CRD of the user's own, as `--crd` and an input both take it. */
const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [size]
              properties:
                size: {type: integer, minimum: 1}
              x-kubernetes-validations:
                - rule: self.size <= 10
                  message: size is at most 10
`;
const widget = (spec: string) => `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec: ${spec}\n`;

(existsSync(BIN) ? describe : describe.skip)('validate: the schema check (issue 36.1)', () => {
  test('the Deployment passes every rule and the schema', () => {
    expect(run(['validate', '-'], DEPLOYMENT)).toMatchObject({ status: 0, stdout: [] });
  });

  test.each([
    ['a typo\'d field', ['  replicas: 2', '  replicass: 2'], ':7:3 Deployment apps/web: spec.replicass: unknown field "replicass": the API server refuses it (strict decoding error), as kubectl apply\'s strict field validation does. Fix: spec.replicass: did you mean "replicas"? Rename it, or remove it. [schema]'],
    ['imagePullPolicy: Sometimes', ['imagePullPolicy: IfNotPresent', 'imagePullPolicy: Sometimes'], ':19:11 Deployment apps/web: spec.template.spec.containers[0].imagePullPolicy: unsupported value "Sometimes". Fix: spec.template.spec.containers[0].imagePullPolicy: write one of "Always", "IfNotPresent", "Never". [schema]'],
    ['value: on, a boolean to kubectl (YAML 1.1), for a string field', ['value: "on"', 'value: on'], ':22:15 Deployment apps/web: spec.template.spec.containers[0].env[0].value: true is a boolean, where the schema wants a string. Fix: spec.template.spec.containers[0].env[0].value: quote the value: kubectl reads an unquoted yes, no, on, off, y or n as a boolean (YAML 1.1), so write it as a string, e.g. "on". [schema]'],
    ['a removed apiVersion', ['apiVersion: apps/v1', 'apiVersion: apps/v1beta1'], ':1:1 Deployment apps/web: Kubernetes 1.35 serves no Deployment in apps/v1beta1 (no matches for kind "Deployment" in version "apps/v1beta1"). Fix: write apiVersion: apps/v1. [schema]'],
  ])('%s is refused at its field, naming the fix', (_, [from, to], line) => {
    const broken = DEPLOYMENT.replace(from, to);
    expect(broken).not.toBe(DEPLOYMENT);
    expect(run(['validate', '-'], broken)).toMatchObject({ status: 1, stdout: [`<stdin>${line}`] });
  });

  test('what the API server takes passes: a quantity as a number, an int-or-string, an empty optional enum, a time; an integer field refuses a fraction', () => {
    const accepted = DEPLOYMENT
      .replace('requests: {cpu: 500m, memory: 1Gi}', 'requests: {cpu: 1, memory: 1Gi}\n            limits: {cpu: 1.5}')
      .replace('imagePullPolicy: IfNotPresent', 'imagePullPolicy: ""\n          ports: [{containerPort: 80, protocol: ""}]\n          readinessProbe: {httpGet: {port: http}}')
      .replace('  replicas: 2', '  replicas: 2\n  strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}');
    expect(accepted).not.toBe(DEPLOYMENT);
    expect(run(['validate', '--rules', 'schema', '-'], accepted)).toMatchObject({ status: 0, stdout: [] });
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox}]\nstatus: {startTime: "2026-11-29T04:00:00Z"}\n';
    expect(run(['validate', '--rules', 'schema', '-'], job)).toMatchObject({ status: 0, stdout: [] });
    // Required fields and integers (int32 in the OpenAPI document).
    expect(run(['validate', '--rules', 'schema', '-'], DEPLOYMENT.replace('replicas: 2', 'replicas: 1.5').replace('- name: web\n          image:', '- image:')).stdout).toEqual([
      expect.stringContaining('spec.replicas: 1.5 is a number, where the schema wants an integer'),
      expect.stringContaining('spec.template.spec.containers[0].name: required field not set'),
    ]);
  });

  test('an unknown field in a MachineDeployment is refused against the pinned Cluster API CRD', () => {
    const md = 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: MachineDeployment\nmetadata: {name: md}\nspec:\n  clusterName: c\n  replicas: 1\n  selector: {matchLabels: {a: b}}\n  template:\n    spec:\n      clusterName: c\n      bootstrap: {dataSecretName: s}\n      infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: AWSMachineTemplate, name: t}\n      nodeDrainTimeout: 10s\n';
    const r = run(['validate', '--rules', 'schema', '-'], md);
    expect(r.status).toBe(1);
    expect(r.stdout).toEqual([expect.stringContaining(':13:7 MachineDeployment md: spec.template.spec.nodeDrainTimeout: unknown field "nodeDrainTimeout"')]);
  });

  test('--kubernetes-version picks the minor: PodSpec.resources exists from 1.32, so 1.29 refuses it', () => {
    const withPodResources = DEPLOYMENT.replace('      os: {name: windows}', '      os: {name: windows}\n      resources: {limits: {cpu: "1"}}');
    expect(run(['validate', '--rules', 'schema', '-'], withPodResources).status).toBe(0);
    expect(run(['validate', '--rules', 'schema', '--kubernetes-version', 'v1.32.4', '-'], withPodResources).status).toBe(0);
    expect(run(['validate', '--rules', 'schema', '--kubernetes-version', '1.29', '-'], withPodResources).stdout).toEqual([expect.stringContaining('spec.template.spec.resources: unknown field "resources"')]);
  });

  test('--kubernetes-version: an unknown version exits 2; versions are read as users write them', () => {
    expect(run(['validate', '--kubernetes-version', '1.12', '-'], DEPLOYMENT)).toMatchObject({ status: 2, stderr: `--kubernetes-version 1.12: the Kubernetes versions whose schemas this release knows are ${KUBERNETES_MINORS.join(', ')}\n` });
    expect(kubernetesMinorOf('v1.34.10+k0s.0')).toBe('1.34');
  });

  test('a kind no schema covers is reported as not checked (advice), an error with --strict; --crd and a CRD among the inputs cover it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'schema-'));
    writeFileSync(join(dir, 'widget-crd.yaml'), WIDGET_CRD);
    const unchecked = run(['validate', '-'], widget('{size: 3}'));
    expect(unchecked).toMatchObject({ status: 0, stdout: [] });
    expect(unchecked.stderr).toContain('advice: <stdin>:1:1 Widget w: no schema for Widget example.com/v1: not checked. Fix: name its CRD with --crd <file|dir>');
    expect(run(['validate', '--strict', '-'], widget('{size: 3}'))).toMatchObject({ status: 1, stdout: [expect.stringContaining('no schema for Widget example.com/v1: not checked')] });
    expect(run(['validate', '--strict', '--crd', dir, '-'], widget('{size: 3}'))).toMatchObject({ status: 0, stdout: [] });
    // The CRD's schema and its CEL rule.
    expect(run(['validate', '--crd', join(dir, 'widget-crd.yaml'), '-'], widget('{size: 0, colour: red}')).stdout).toEqual([
      expect.stringContaining('spec.size: 0 breaks the schema\'s minimum 1'),
      expect.stringContaining('spec.colour: unknown field "colour"'),
    ]);
    expect(run(['validate', '--crd', dir, '-'], widget('{size: 11}')).stdout).toEqual([expect.stringContaining('spec: size is at most 10 (the Widget CRD\'s rule "self.size <= 10")')]);
    // A CRD applied with its objects covers them too.
    expect(run(['validate', '-'], `${WIDGET_CRD}---\n${widget('{}')}`).stdout).toEqual([expect.stringContaining('spec.size: required field not set')]);
    // A --crd path without a CRD is a mistake, not "nothing to check".
    writeFileSync(join(dir, 'not-a-crd.yaml'), DEPLOYMENT);
    expect(run(['validate', '--crd', join(dir, 'not-a-crd.yaml'), '-'], widget('{size: 3}'))).toMatchObject({ status: 2, stderr: expect.stringContaining('no CustomResourceDefinition in it') });
  });

  /** A folder with a git marker, the Widget CRD and an app of a Widget and a Deployment with pod-level resources (Kubernetes 1.32 on). */
  function configDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'schema-config-'));
    writeFileSync(join(dir, '.git'), 'gitdir: elsewhere\n');
    writeFileSync(join(dir, 'widget-crd.yaml'), WIDGET_CRD);
    writeFileSync(join(dir, 'app.yaml'), `${widget('{size: 3}')}---\n${DEPLOYMENT.replace('      os: {name: windows}', '      os: {name: windows}\n      resources: {limits: {cpu: "1"}}')}`);
    return dir;
  }

  test('the config file sets the version the core objects are checked against', () => {
    const dir = configDir();
    writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'rules: schema\nkubernetesVersion: "1.29"\nstrict: true\n');
    expect(run(['validate', 'app.yaml'], undefined, dir).stdout).toEqual([expect.stringContaining('unknown field "resources"'), expect.stringContaining('not checked')]);
  });

  test('the config file sets the version, the CRDs (relative to it) and strict', () => {
    const dir = configDir();
    writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'rules: schema\nkubernetesVersion: "1.29"\nstrict: true\n');
    expect(run(['validate', 'app.yaml'], undefined, dir).stdout).toEqual([expect.stringContaining('unknown field "resources"'), expect.stringContaining('no schema for Widget example.com/v1: not checked')]);
    writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'rules: schema\nkubernetesVersion: "1.35"\nstrict: true\ncrds: [widget-crd.yaml]\n');
    expect(run(['validate', 'app.yaml'], undefined, dir)).toMatchObject({ status: 0, stdout: [] });
    writeFileSync(join(dir, '.cdk-hybrid-windows.yaml'), 'kubernetesVersion: 1.30\n');
    expect(run(['validate', 'app.yaml'], undefined, dir)).toMatchObject({ status: 2, stderr: expect.stringContaining('kubernetesVersion is not a string: quote it') });
  });

  test('loading the package for a cdk8s app loads no schema: the generated schemas and the validator wait for the first check', () => {
    const probe = `for (const m of ['index', 'workloads/index']) require(${JSON.stringify(join(ROOT, 'lib', 'src'))} + '/' + m);
      console.log(JSON.stringify(Object.keys(require.cache).filter((f) => /generated[\\/](k8s|crd)-schemas|k8s-object-meta|schema[\\/]validator/.test(f))));`;
    const loaded = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(loaded.stderr).toBe('');
    expect(JSON.parse(loaded.stdout)).toEqual([]);
  });

  test('the schema check accepts the valid fixture', () => {
    const objects = parseYamlStream(VALID).documents.map((d) => d.value).filter((v) => v !== null) as object[];
    expect(objects.length).toBeGreaterThan(0);
    expect(validateManifests(objects, { rules: [schemaRule()] })).toEqual([]);
  });

  test('the schema check runs in validateManifests (and so at synth) on every object', () => {
    const broken = parseYamlStream(DEPLOYMENT.replace('replicas: 2', 'replicass: 2')).documents.map((d) => d.value) as object[];
    expect(validateManifests(broken).map((v) => `${v.rule} ${v.field}`)).toEqual(['schema spec.replicass']);
  });

  test('string lengths count code points, as the API server does (an emoji is one character, two UTF-16 units)', () => {
    const crd = parseYamlStream(WIDGET_CRD.replace('size: {type: integer, minimum: 1}', 'size: {type: integer, minimum: 1}\n                label: {type: string, minLength: 2, maxLength: 3}')).documents[0].value;
    const problems = (label: string) => validateManifests([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3, label } }], { rules: [schemaRule({ crds: [crd] })] })
      .map((v) => v.field);
    expect(problems('\u{1F600}\u{1F600}\u{1F600}')).toEqual([]); // 3 code points, 6 units
    expect(problems('\u{1F600}\u{1F600}\u{1F600}\u{1F600}')).toEqual(['spec.label']); // 4 code points
    expect(problems('\u{1F600}')).toEqual(['spec.label']); // 1 code point, 2 units
    expect(problems('ab')).toEqual([]);
    expect(problems('abcd')).toEqual(['spec.label']);
    expect(problems('a')).toEqual(['spec.label']);
  });

  test('a value that is no JSON (NaN, Infinity, from code) is named as written', () => {
    const [deployment] = parseYamlStream(DEPLOYMENT).documents.map((d) => d.value) as Array<{ spec: { replicas: number } }>;
    deployment.spec.replicas = NaN;
    expect(validateManifests([deployment], { rules: [schemaRule()] }).map((v) => v.message)).toEqual([expect.stringContaining('spec.replicas: NaN is a number, where the schema wants an integer')]);
  });
});
