#!/usr/bin/env node
// CI for the package as users get it: packs the tarball, installs it with the README's install
// lines into fresh CDK Terrain, cdktf and cdk8s projects (test/consumers/<flavour>: the files each
// `init` writes, with its versions pinned), and runs the README's examples there with each CLI; the
// CDK Terrain project then takes the README's AKS lines too, beside the AWS provider.
// Only the npm registry is used; Terraform itself is not needed (synth only).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
/** The Node.js line CDK Terrain needs (cdktn-cli: >= 22.19), from the npm registry's `node` package. */
const NODE = '22.23.3';
const STEP_TIMEOUT_MS = 8 * 60_000;

const work = mkdtempSync(join(tmpdir(), 'chw-consumers-'));
const started = Date.now();
let passed = 0;
let failed = 0;

/** Runs a command; resolves with its status, output and seconds, never rejects. */
function run(cmd, args, { cwd, env, input } = {}) {
  const t = Date.now();
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (status) => { clearTimeout(timer); done({ status, out, s: Math.round((Date.now() - t) / 1000) }); });
    child.stdin.end(input ?? '');
  });
}

/** Records one check; `r` is the run it judged (for its time and, on failure, its output). */
function check(log, name, ok, r = {}, extra = '') {
  if (ok) passed++; else failed++;
  const detail = ok ? '' : `\n${`${r.out ?? ''}${extra}`.split('\n').filter((l) => !/nodedir|install-scripts/.test(l)).slice(-40).join('\n')}`;
  log.push(`${ok ? 'ok  ' : 'FAIL'} ${name}${r.s !== undefined ? ` (${r.s} s)` : ''}${detail}`);
  return ok;
}

/** The first fenced block of `lang` after the heading that starts with `heading`. */
function block(markdown, heading, lang) {
  const at = markdown.indexOf(`\n${heading}`);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const m = new RegExp('^```' + lang + '[^\\S\\n]*\\n([\\s\\S]*?)^```', 'm').exec(markdown.slice(at));
  if (!m) throw new Error(`no \`\`\`${lang} block after "${heading}"`);
  return m[1];
}

/** The `npm` lines (`npm install`, `npm pkg set`) that follow the comment naming `init` in the README's install block. */
function installLines(readme, init) {
  const lines = block(readme, '## Using it in your project', 'sh').split('\n');
  const start = lines.findIndex((l) => l.startsWith('#') && l.includes(init));
  if (start < 0) throw new Error(`no install comment for ${init}`);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => !l.startsWith('npm '));
  return rest.slice(0, end < 0 ? rest.length : end);
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const stacks = (dir) => existsSync(dir) ? readdirSync(join(dir, 'stacks')) : [];
const tfJson = (dir, stack) => JSON.parse(readFileSync(join(dir, 'stacks', stack, 'cdk.tf.json'), 'utf8'));

/** npm options for every consumer install: the pinned versions resolve from npm's cache when it has them. */
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline'];

/** Runs the README's install lines after the comment naming `marker`, the tarball for `cdk-hybrid-windows`, as a shell would pass their words. */
async function runInstallLines(log, label, marker, dir, tarball, env) {
  for (const line of installLines(readme, marker)) {
    const args = line.replace(/\s+#.*$/, '').split(/\s+/).slice(1).map((a) => (a === 'cdk-hybrid-windows' ? tarball : a.replace(/^'(.*)'$/, '$1')));
    const r = await run('npm', [...args, ...NPM_FLAGS], { cwd: dir, env });
    if (!check(log, `${label}: README "${line}"`, r.status === 0, r)) return false;
  }
  return true;
}

/** The provider packages a project installed, e.g. ['@cdktn/provider-aws']. */
const providers = (dir) => (existsSync(join(dir, 'node_modules', '@cdktn')) ? readdirSync(join(dir, 'node_modules', '@cdktn')).map((p) => `@cdktn/${p}`) : []);

/** A fresh project as `init` leaves it, then the README's install lines for it. */
async function install(log, flavour, tarball, env) {
  const dir = join(work, flavour);
  cpSync(join(HERE, flavour), dir, { recursive: true });
  // cdktf init installs TypeScript 7 and ts-jest (peer typescript < 7) in two named installs, which
  // npm lets through with a warning; a plain install of what it wrote stops with ERESOLVE.
  const base = await run('npm', ['install', ...NPM_FLAGS, ...(flavour === 'cdktf' ? ['--legacy-peer-deps'] : [])], { cwd: dir, env });
  if (!check(log, `${flavour}: the project init makes`, base.status === 0, base)) return undefined;
  if (!await runInstallLines(log, flavour, `${flavour} init`, dir, tarball, env)) return undefined;
  // The azurerm provider is an optional peer: a cdk8s-only or AWS-only project installs none.
  check(log, `${flavour}: no azurerm provider installed (providers: ${providers(dir).join(', ') || 'none'})`, !providers(dir).includes('@cdktn/provider-azurerm'));
  return dir;
}

/** The README's AWS, EKS and GKE examples, and a Windows Server 2025 node group, with `cli synth`. */
async function terraform(log, cli, dir, env) {
  const provider = cli === 'cdktn' ? '6.66.0' : '6.25.0';
  const examples = { 'aws.ts': block(readme, '## The AWS stack', 'ts'), 'eks.ts': block(readme, '## EKS', 'ts'), 'gke.ts': block(readme, '## GKE', 'ts') };
  for (const [file, code] of Object.entries(examples)) writeFileSync(join(dir, file), code);
  // On cdktf, the project's own App (from `cdktf`) runs the library's stacks (from the aliased names).
  const eks2025 = readFileSync(join(HERE, 'programs', 'eks-2025.ts'), 'utf8');
  writeFileSync(join(dir, 'eks-2025.ts'), cli === 'cdktf' ? eks2025.replace("from 'cdktn'", "from 'cdktf'") : eks2025);
  const synth = (file) => run('npx', [cli, 'synth', '--app', `npx ts-node ${file}`, '--output', `out-${file.replace('.ts', '')}`], { cwd: dir, env });
  for (const [file, stack, resource] of [['aws.ts', 'aws-test-infra', 'aws_vpc'], ['eks.ts', 'eks-test', 'aws_eks_node_group']]) {
    const r = await synth(file);
    const out = join(dir, `out-${file.replace('.ts', '')}`);
    const json = r.status === 0 && stacks(out).includes(stack) ? tfJson(out, stack) : undefined;
    check(log, `${cli} synth of the README's ${file.replace('.ts', '')} example: stack ${stack}, hashicorp/aws ${provider}`,
      json?.terraform?.required_providers?.aws?.version === provider && json?.resource?.[resource] !== undefined, r);
  }
  // GKE needs no provider package: the README's lines install none for it.
  const gke = await synth('gke.ts');
  const gkeJson = gke.status === 0 && stacks(join(dir, 'out-gke')).includes('gke-test') ? tfJson(join(dir, 'out-gke'), 'gke-test') : undefined;
  const windowsPool = Object.values(gkeJson?.resource?.google_container_node_pool ?? {}).find((p) => p.node_config?.image_type === 'WINDOWS_LTSC_CONTAINERD');
  check(log, `${cli} synth of the README's gke example: stack gke-test, hashicorp/google ~> 7.0, a WINDOWS_LTSC_CONTAINERD pool of OS_VERSION_LTSC2022, the default pool removed`,
    gkeJson?.terraform?.required_providers?.google?.version === '~> 7.0' && windowsPool?.node_config?.windows_node_config?.osversion === 'OS_VERSION_LTSC2022'
      && Object.values(gkeJson.resource.google_container_cluster)[0]?.remove_default_node_pool === true, gke);
  const r = await synth('eks-2025.ts');
  if (cli === 'cdktn') {
    const types = r.status === 0 ? Object.values(tfJson(join(dir, 'out-eks-2025'), 'eks-2025').resource.aws_eks_node_group).map((g) => g.ami_type) : [];
    check(log, 'cdktn synth of a Windows Server 2025 node group: accepted', types.includes('WINDOWS_CORE_2025_x86_64'), r);
    return;
  }
  check(log, 'cdktf synth of a Windows Server 2025 node group, its App from cdktf itself: refused, naming the provider and the fix', r.status !== 0
    && r.out.includes('AMI type WINDOWS_CORE_2025_x86_64 is unknown to hashicorp/aws 6.25.0')
    && r.out.includes("Fix: use CDK Terrain's @cdktn/provider-aws 25"), r);
}

/** The README workloads example with the plugin snippet, WindowsPod on both majors, the validator. */
/**
 * AKS in the CDK Terrain project that already has the AWS provider: the README's AKS lines (the
 * npm override, then the azurerm provider), then its AKS example with `cdktn synth`.
 */
async function aks(log, dir, tarball, env) {
  if (!await runInstallLines(log, 'cdktn', 'For AKS', dir, tarball, env)) return;
  const ls = await run('npm', ['ls', 'cdktn', '@cdktn/provider-aws', '@cdktn/provider-azurerm'], { cwd: dir, env });
  check(log, 'cdktn: one cdktn 0.24.0 for both providers, npm ls clean', ls.status === 0 && /@cdktn\/provider-azurerm@16\.1\.0/.test(ls.out) && /@cdktn\/provider-aws@25\./.test(ls.out) && !/cdktn@0\.23/.test(ls.out), ls);
  writeFileSync(join(dir, 'aks.ts'), block(readme, '## AKS', 'ts'));
  const r = await run('npx', ['cdktn', 'synth', '--app', 'npx ts-node aks.ts', '--output', 'out-aks'], { cwd: dir, env });
  const json = r.status === 0 && stacks(join(dir, 'out-aks')).includes('aks-test') ? tfJson(join(dir, 'out-aks'), 'aks-test') : undefined;
  const [cluster] = Object.values(json?.resource?.azurerm_kubernetes_cluster ?? {});
  const windows = Object.values(json?.resource?.azurerm_kubernetes_cluster_node_pool ?? {}).find((p) => p.os_type === 'Windows');
  check(log, 'cdktn synth of the README\'s AKS example: hashicorp/azurerm 4.73.0, Azure CNI Overlay, the password a sensitive variable, a Windows2022 pool of 6 characters at most with the taint',
    json?.terraform?.required_providers?.azurerm?.version === '4.73.0'
    && cluster?.network_profile?.network_plugin === 'azure' && cluster?.network_profile?.network_plugin_mode === 'overlay'
    && cluster?.windows_profile?.admin_password === '${var.windows_admin_password}' && json?.variable?.windows_admin_password?.sensitive === true
    && windows?.os_sku === 'Windows2022' && windows?.name.length <= 6 && windows?.node_taints?.includes('os=windows:NoSchedule'), r);
}

async function cdk8s(log, dir, env) {
  const plugin = block(readFileSync(join(ROOT, 'docs', 'cluster.md'), 'utf8'), '### The validation plugin', 'yaml');
  writeFileSync(join(dir, 'cdk8s.yaml'), readFileSync(join(dir, 'cdk8s.yaml'), 'utf8') + plugin.replace(/^# cdk8s\.yaml\n/, ''));
  // One program, so one compile: the README example as written, then WindowsPod on a cdk8s-plus-33 Deployment.
  writeFileSync(join(dir, 'workloads-example.ts'), block(readme, '## Windows workloads', 'ts'));
  writeFileSync(join(dir, 'main.ts'), "import './workloads-example';\nimport './windows-pod';\n");
  for (const f of ['windows-pod.ts', 'plugin-violation.ts']) cpSync(join(HERE, 'programs', f), join(dir, f));
  const synth = (args, extraEnv = {}) => run('npx', ['cdk8s', 'synth', ...args], { cwd: dir, env: { ...env, ...extraEnv } });
  const yamlIn = (out) => (existsSync(join(dir, out)) ? readdirSync(join(dir, out)).map((f) => readFileSync(join(dir, out, f), 'utf8')).join('\n') : '');

  const windowsPod = (yaml) => yaml.includes('name: windows') && yaml.includes('effect: NoSchedule') && !yaml.includes('shareProcessNamespace');
  let r = await synth([]);
  const files = existsSync(join(dir, 'dist')) ? readdirSync(join(dir, 'dist')) : [];
  const example = files.filter((f) => f.startsWith('apps')).map((f) => readFileSync(join(dir, 'dist', f), 'utf8')).join('\n');
  check(log, 'cdk8s synth of the README workloads example, validated by the HybridValidation plugin', r.status === 0
    && r.out.includes('Validations ended succesfully') && r.out.includes('cdk-hybrid-windows@') && /kind: DaemonSet/.test(example) && example.includes('name: windows') && example.includes('effect: NoSchedule'), r);
  const pod33 = files.filter((f) => f.startsWith('windows-pod')).map((f) => readFileSync(join(dir, 'dist', f), 'utf8')).join('\n');
  check(log, 'WindowsPod on a cdk8s-plus-33 Deployment: os windows, the toleration, no shareProcessNamespace', r.status === 0 && windowsPod(pod33), r, pod33);
  r = await run('npx', ['cdk-hybrid-windows', 'validate', 'dist'], { cwd: dir, env });
  check(log, 'npx cdk-hybrid-windows validate dist: exit 0', r.status === 0, r);
  r = await run('npx', ['cdk-hybrid-windows', 'validate', '-'], { cwd: dir, env, input: readFileSync(join(ROOT, 'test', 'cli', 'fixtures', 'helm-web.yaml'), 'utf8') });
  check(log, 'helm-template-style YAML piped into npx cdk-hybrid-windows validate -: exit 1, one line per violation with line, column, template and rule', r.status === 1
    && /^<stdin>:\d+:\d+ Job apps\/migrate \(web\/templates\/job\.yaml\): .+\. Fix: .+\. \[windows-node-selector\]$/m.test(r.out), r);
  r = await synth(['--app', 'npx ts-node plugin-violation.ts', '--output', 'dist-violation']);
  check(log, 'cdk8s synth with the plugin refuses a Windows pod that cannot schedule', r.status !== 0
    && r.out.includes('windows-toleration') && r.out.includes('must tolerate the Windows node taint'), r);

  // The README's CAPZ example through the package's cdk-hybrid-windows/capz entry point, then the validator with --platform capz.
  writeFileSync(join(dir, 'capz-example.ts'), block(readme, '## Azure with Cluster API', 'ts'));
  r = await synth(['--app', 'npx ts-node capz-example.ts', '--output', 'dist-capz']);
  const capz = yamlIn('dist-capz');
  check(log, 'cdk8s synth of the README CAPZ example (cdk-hybrid-windows/capz): osType Windows, the named pipe, kube-proxy at v1.34.4, ClusterResourceSets', r.status === 0
    && capz.includes('osType: Windows') && capz.includes('npipe:////./pipe/containerd-containerd') && capz.includes('sigwindowstools/kube-proxy:v1.34.4-calico-hostprocess') && capz.includes('kind: ClusterResourceSet'), r, capz);
  r = await run('npx', ['cdk-hybrid-windows', 'validate', '--platform', 'capz', 'dist-capz'], { cwd: dir, env });
  check(log, 'npx cdk-hybrid-windows validate --platform capz dist-capz: exit 0', r.status === 0, r);

  // A project on cdk8s-plus-28 keeps it beside cdk8s-plus-33 (README).
  r = await run('npm', ['install', ...NPM_FLAGS, 'cdk8s-plus-28@^2.5.0'], { cwd: dir, env });
  if (!check(log, 'cdk8s: cdk8s-plus-28 beside cdk8s-plus-33', r.status === 0, r)) return;
  r = await synth(['--app', 'npx ts-node windows-pod.ts', '--output', 'dist-plus-28'], { CDK8S_PLUS: 'cdk8s-plus-28' });
  const pod28 = yamlIn('dist-plus-28');
  check(log, 'WindowsPod on a cdk8s-plus-28 Deployment: os windows, the toleration, no shareProcessNamespace', r.status === 0 && windowsPod(pod28), r, pod28);
}

async function main() {
  const log = [];
  console.log(`consumers in ${work}`);
  // Node.js 22 for every consumer, from the npm registry; npm itself runs on it too.
  const tools = join(work, 'tools');
  const node = await run('npm', ['install', '--prefix', tools, '--no-save', ...NPM_FLAGS, `node@${NODE}`]);
  const env = { PATH: `${join(tools, 'node_modules', 'node', 'bin')}${delimiter}${process.env.PATH}`, CHECKPOINT_DISABLE: '1', CI: 'true' };
  const ok = check(log, `Node.js ${NODE} from the npm registry`, node.status === 0, node);
  const pack = ok ? await run('npm', ['pack', '--pack-destination', work], { cwd: ROOT, env }) : { status: 1, out: '' };
  const tarball = join(work, pack.out.trim().split('\n').pop());
  console.log(log.splice(0).join('\n'));
  if (!ok || !check(log, 'npm pack', pack.status === 0 && existsSync(tarball), pack)) return console.log(log.join('\n'));

  // Each flavour installs and synthesizes on its own; they run at once (downloads and disk waits
  // overlap), and their lines are printed flavour by flavour.
  const logs = await Promise.all(['cdktn', 'cdktf', 'cdk8s'].map(async (flavour) => {
    const own = [];
    const t = Date.now();
    try {
      const dir = await install(own, flavour, tarball, env);
      if (dir) await (flavour === 'cdk8s' ? cdk8s(own, dir, env) : terraform(own, flavour, dir, env));
      if (dir && flavour === 'cdktn') await aks(own, dir, tarball, env);
    } catch (e) {
      check(own, `${flavour}`, false, { out: String(e?.stack ?? e) });
    }
    own.push(`     ${flavour}: ${Math.round((Date.now() - t) / 1000)} s in all`);
    return own;
  }));
  console.log([...log, ...logs.flat()].join('\n'));
}

try {
  await main();
} catch (e) {
  const log = [];
  check(log, 'consumers', false, { out: String(e?.stack ?? e) });
  console.log(log.join('\n'));
} finally {
  // Gigabytes of node_modules: removed after this process, not waited for.
  if (failed === 0) spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  console.log(`consumers took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`consumers: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}
