#!/usr/bin/env node
// CI for the package as users get it: packs the tarball, installs it with the README's install
// lines into fresh CDK Terrain, cdktf and cdk8s projects (test/consumers/<flavour>: the files each
// `init` writes, with its versions pinned), and runs the README's examples there with each CLI.
// Only the npm registry is used; Terraform itself is not needed (synth only).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

/** Runs a command; resolves with its status and output, never rejects. */
function run(cmd, args, { cwd, env, input } = {}) {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (status) => { clearTimeout(timer); done({ status, out }); });
    child.stdin.end(input ?? '');
  });
}

function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n${detail.split('\n').filter((l) => !/nodedir|install-scripts/.test(l)).slice(-40).join('\n')}`}`);
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

/** The `npm install` lines that follow the comment naming `init` in the README's install block. */
function installLines(readme, init) {
  const lines = block(readme, '## Using it in your project', 'sh').split('\n');
  const start = lines.findIndex((l) => l.startsWith('#') && l.includes(init));
  if (start < 0) throw new Error(`no install comment for ${init}`);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => !l.startsWith('npm install'));
  return rest.slice(0, end < 0 ? rest.length : end);
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const stacks = (dir) => existsSync(dir) ? readdirSync(join(dir, 'stacks')) : [];
const tfJson = (dir, stack) => JSON.parse(readFileSync(join(dir, 'stacks', stack, 'cdk.tf.json'), 'utf8'));

async function main() {
  console.log(`consumers in ${work}`);
  // Node.js 22 for every consumer, from the npm registry; npm itself runs on it too.
  const tools = join(work, 'tools');
  const node = await run('npm', ['install', '--prefix', tools, '--no-save', '--no-audit', '--no-fund', `node@${NODE}`]);
  if (!check(`Node.js ${NODE} from the npm registry`, node.status === 0, node.out)) return;
  const env = { PATH: `${join(tools, 'node_modules', 'node', 'bin')}${delimiter}${process.env.PATH}`, CHECKPOINT_DISABLE: '1', CI: 'true' };

  const pack = await run('npm', ['pack', '--pack-destination', work], { cwd: ROOT, env });
  const tarball = join(work, pack.out.trim().split('\n').pop());
  if (!check('npm pack', pack.status === 0 && existsSync(tarball), pack.out)) return;

  // The flavours install at once (network and disk), then synthesize one after another (CPU).
  const flavours = ['cdktn', 'cdktf', 'cdk8s'];
  const installed = await Promise.all(flavours.map(async (flavour) => {
    const dir = join(work, flavour);
    cpSync(join(HERE, flavour), dir, { recursive: true });
    const base = await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, env });
    if (!check(`${flavour}: the project init makes installs`, base.status === 0, base.out)) return false;
    for (const line of installLines(readme, `${flavour} init`)) {
      const args = line.replace(/\s+#.*$/, '').split(/\s+/).slice(1).map((a) => (a === 'cdk-hybrid-windows' ? tarball : a));
      const r = await run('npm', [...args, '--no-audit', '--no-fund'], { cwd: dir, env });
      if (!check(`${flavour}: README "${line}"`, r.status === 0, r.out)) return false;
    }
    return true;
  }));

  const [tn, tf, k8s] = flavours.map((f) => join(work, f));
  const examples = { 'aws.ts': block(readme, '## The AWS stack', 'ts'), 'eks.ts': block(readme, '## EKS', 'ts') };
  const eks2025 = readFileSync(join(HERE, 'programs', 'eks-2025.ts'), 'utf8');

  for (const [dir, cli, provider, ok] of [[tn, 'cdktn', '6.66.0', installed[0]], [tf, 'cdktf', '6.25.0', installed[1]]]) {
    if (!ok) continue;
    for (const [file, code] of Object.entries({ ...examples, 'eks-2025.ts': eks2025 })) writeFileSync(join(dir, file), code);
    const synth = (file) => run('npx', [cli, 'synth', '--app', `npx ts-node ${file}`, '--output', `out-${file.replace('.ts', '')}`], { cwd: dir, env });
    for (const [file, stack, resource] of [['aws.ts', 'aws-test-infra', 'aws_vpc'], ['eks.ts', 'eks-test', 'aws_eks_node_group']]) {
      const r = await synth(file);
      const out = join(dir, `out-${file.replace('.ts', '')}`);
      const json = r.status === 0 && stacks(out).includes(stack) ? tfJson(out, stack) : undefined;
      check(`${cli} synth of the README's ${file.replace('.ts', '')} example: stack ${stack}, hashicorp/aws ${provider}`,
        json?.terraform?.required_providers?.aws?.version === provider && json?.resource?.[resource] !== undefined, r.out);
    }
    const r = await synth('eks-2025.ts');
    if (cli === 'cdktn') {
      const group = r.status === 0 ? Object.values(tfJson(join(dir, 'out-eks-2025'), 'eks-2025').resource.aws_eks_node_group).map((g) => g.ami_type) : [];
      check('cdktn synth of a Windows Server 2025 node group: accepted', group.includes('WINDOWS_CORE_2025_x86_64'), r.out);
    } else {
      check('cdktf synth of a Windows Server 2025 node group: refused, naming the provider and the fix', r.status !== 0
        && r.out.includes('AMI type WINDOWS_CORE_2025_x86_64 is unknown to hashicorp/aws 6.25.0')
        && r.out.includes("Fix: use CDK Terrain's @cdktn/provider-aws 25"), r.out);
      // A cdktf project's own App, from `cdktf`, with the library's stacks from the aliased names.
      writeFileSync(join(dir, 'aws-cdktf-app.ts'), examples['aws.ts'].replace("from 'cdktn'", "from 'cdktf'"));
      const own = await synth('aws-cdktf-app.ts');
      check('cdktf synth of the AWS example with App from cdktf itself', own.status === 0 && stacks(join(dir, 'out-aws-cdktf-app')).includes('aws-test-infra'), own.out);
    }
  }

  if (installed[2]) {
    // cdk8s.yaml as init writes it, plus the plugin snippet of docs/cluster.md.
    const plugin = block(readFileSync(join(ROOT, 'docs', 'cluster.md'), 'utf8'), '### The validation plugin', 'yaml');
    writeFileSync(join(k8s, 'cdk8s.yaml'), readFileSync(join(k8s, 'cdk8s.yaml'), 'utf8') + plugin.replace(/^# cdk8s\.yaml\n/, ''));
    writeFileSync(join(k8s, 'main.ts'), block(readme, '## Windows workloads', 'ts'));
    for (const f of ['windows-pod.ts', 'plugin-violation.ts']) cpSync(join(HERE, 'programs', f), join(k8s, f));
    const synth = (args, extraEnv = {}) => run('npx', ['cdk8s', 'synth', ...args], { cwd: k8s, env: { ...env, ...extraEnv } });

    let r = await synth([]);
    const files = existsSync(join(k8s, 'dist')) ? readdirSync(join(k8s, 'dist')) : [];
    const yaml = files.map((f) => readFileSync(join(k8s, 'dist', f), 'utf8')).join('\n');
    check('cdk8s synth of the README workloads example, validated by the HybridValidation plugin', r.status === 0
      && r.out.includes('Validations ended succesfully') && r.out.includes('cdk-hybrid-windows@') && /kind: Deployment/.test(yaml) && yaml.includes('name: windows'), r.out);
    const validate = await run('npx', ['cdk-hybrid-windows', 'validate', 'dist'], { cwd: k8s, env });
    check('cdk-hybrid-windows validate dist: exit 0', validate.status === 0, validate.out);

    for (const major of ['cdk8s-plus-33', 'cdk8s-plus-28']) {
      if (major === 'cdk8s-plus-28') {
        const add = await run('npm', ['install', '--no-audit', '--no-fund', 'cdk8s-plus-28@^2.5.0'], { cwd: k8s, env });
        if (!check('cdk8s: cdk8s-plus-28 beside cdk8s-plus-33', add.status === 0, add.out)) break;
      }
      r = await synth(['--app', 'npx ts-node windows-pod.ts', '--output', `dist-${major}`], { CDK8S_PLUS: major });
      const pod = existsSync(join(k8s, `dist-${major}`)) ? readdirSync(join(k8s, `dist-${major}`)).map((f) => readFileSync(join(k8s, `dist-${major}`, f), 'utf8')).join('\n') : '';
      check(`WindowsPod on a ${major} Deployment: os windows, the toleration, no shareProcessNamespace`, r.status === 0
        && pod.includes('name: windows') && pod.includes('effect: NoSchedule') && !pod.includes('shareProcessNamespace'), r.out + pod);
    }

    r = await synth(['--app', 'npx ts-node plugin-violation.ts', '--output', 'dist-violation']);
    check('cdk8s synth with the plugin refuses a Windows pod that cannot schedule', r.status !== 0
      && r.out.includes('pod-template') && r.out.includes('must tolerate the Windows node taint'), r.out);
    const piped = await run('npx', ['cdk-hybrid-windows', 'validate', '-'], { cwd: k8s, env, input: readFileSync(join(ROOT, 'test', 'cli', 'fixtures', 'helm-web.yaml'), 'utf8') });
    check('helm-template-style YAML piped into npx cdk-hybrid-windows validate -: exit 1, one line per violation', piped.status === 1 && /^<stdin>:2 Deployment apps\/web: /m.test(piped.out), piped.out);
  }
}

try {
  await main();
} catch (e) {
  check('consumers', false, String(e?.stack ?? e));
} finally {
  if (failed === 0) rmSync(work, { recursive: true, force: true });
  console.log(`consumers took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`consumers: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}
