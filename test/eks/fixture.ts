import { Testing } from 'cdktn';
import { EksLinuxNodeGroup, EksWindowsNodeGroup, HybridEksStack, HybridEksStackProps } from '../../src/eks';

/** An EKS stack in a fresh app: add node groups to `stack.cluster`. */
export function eksStack(props: Partial<HybridEksStackProps> = {}): HybridEksStack {
  return new HybridEksStack(Testing.app(), 'eks-test', { region: 'eu-north-1', clusterName: 'eks-test', kubernetesVersion: '1.34', ...props });
}

/** `stack` with a Linux node group for CoreDNS (the `eks-coredns` rule), so that it synthesizes. */
export function withLinux<T extends HybridEksStack>(stack: T): T {
  new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'] });
  return stack;
}

/** The working shape: one Linux group for CoreDNS and one Windows Server 2022 group. */
export function hybridStack(props: Partial<HybridEksStackProps> = {}): { stack: HybridEksStack; linux: EksLinuxNodeGroup; windows: EksWindowsNodeGroup } {
  const stack = eksStack(props);
  const linux = new EksLinuxNodeGroup(stack.cluster, 'linux', { instanceTypes: ['t3.large'], minSize: 2 });
  const windows = new EksWindowsNodeGroup(stack.cluster, 'windows', { instanceTypes: ['m6i.xlarge'], minSize: 2 });
  return { stack, linux, windows };
}

/** The message synth fails with, or '' when it passes. */
export function synthError(stack: HybridEksStack): string {
  try {
    Testing.synth(stack, true);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
