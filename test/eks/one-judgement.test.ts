import { HybridConfigError, TerraformJson, validateTerraform } from '../../src';
import { EksLinuxNodeGroup, EksNodeGroupOptions, EksWindowsNodeGroup, HybridEksStack, HybridEksStackProps } from '../../src/eks';
import { eksStack, hybridStack } from './fixture';

type Fixture = ReturnType<typeof hybridStack>;

/**
 * Each judgement has one home, on the Terraform side too: a bad prop refused at construction and
 * the same value written into the final JSON of a valid stack by an escape hatch are reported by
 * the same rule, with the same fix.
 */
const CASES: ReadonlyArray<[string, () => unknown, (f: Fixture) => void]> = [
  ['a cluster name of 101 characters', () => eksStack({ clusterName: 'a'.repeat(101) }), (f) => f.stack.cluster.cluster.addOverride('name', 'a'.repeat(101))],
  ['a Kubernetes version EKS no longer offers', () => eksStack({ kubernetesVersion: '1.25' }), (f) => f.stack.cluster.cluster.addOverride('version', '1.25')],
  ['a public access block with host bits', () => eksStack({ publicAccessCidrs: ['203.0.113.7/24'] }), (f) => f.stack.cluster.cluster.addOverride('vpc_config.public_access_cidrs', ['203.0.113.7/24'])],
  ['an add-on version that is not one', () => eksStack({ addonVersions: { vpcCni: '1.20' } }), (f) => f.stack.cluster.vpcCni.addOverride('addon_version', '1.20')],
  ['a zone for the region', () => eksStack({ region: 'eu-north-1c' }), (f) => f.stack.provider.addOverride('region', 'eu-north-1c')],
  ['a Graviton Windows group', () => group(EksWindowsNodeGroup, { instanceTypes: ['m7g.large'] }), (f) => f.windows.parts.nodeGroup.addOverride('instance_types', ['m7g.large'])],
  ['a node group of 64 characters', () => group(EksLinuxNodeGroup, { nodeGroupName: 'n'.repeat(64) }), (f) => f.linux.parts.nodeGroup.addOverride('node_group_name', 'n'.repeat(64))],
  ['a label the kubelet refuses', () => group(EksLinuxNodeGroup, { labels: { 'kubernetes.io/os': 'windows' } }), (f) => f.linux.parts.nodeGroup.addOverride('labels', { 'kubernetes.io/os': 'windows' })],
  ['scaling sizes out of order', () => group(EksLinuxNodeGroup, { minSize: 3, maxSize: 2 }), (f) => f.linux.parts.nodeGroup.addOverride('scaling_config.max_size', 1)],
  ['user data calling the EKS bootstrap', () => group(EksWindowsNodeGroup, { preBootstrapPowerShell: 'Start-EKSBootstrap.ps1' }),
    (f) => f.windows.parts.launchTemplate.addOverride('user_data', Buffer.from('<powershell>Start-EKSBootstrap.ps1</powershell>').toString('base64'))],
];

function group(kind: typeof EksLinuxNodeGroup | typeof EksWindowsNodeGroup, props: Partial<EksNodeGroupOptions> & { preBootstrapPowerShell?: string }, stack: Partial<HybridEksStackProps> = {}): unknown {
  return new kind(eksStack(stack).cluster, 'group', { instanceTypes: [kind === EksLinuxNodeGroup ? 't3.large' : 'm6i.xlarge'], ...props });
}

function constructionError(build: () => unknown): HybridConfigError {
  try {
    build();
  } catch (e) {
    if (e instanceof HybridConfigError) return e;
    throw e;
  }
  throw new Error('constructed without an error');
}

function written(stack: HybridEksStack): TerraformJson {
  return stack.toTerraform() as TerraformJson;
}

describe('one judgement, one home: the constructor and synth report the same Terraform rule', () => {
  test.each(CASES)('%s', (_, bad, patch) => {
    const refused = constructionError(bad);
    expect(refused.rule).toBeDefined();

    const fixture = hybridStack();
    patch(fixture);
    const fixes = validateTerraform(written(fixture.stack)).filter((v) => v.rule === refused.rule).map((v) => `${v.fix}.`);
    expect(fixes).toContain(`${refused.fix}.`);
  });

  test('the valid fixture is accepted at construction and at synth', () => {
    expect(validateTerraform(written(hybridStack().stack))).toEqual([]);
  });
});
