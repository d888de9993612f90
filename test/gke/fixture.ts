import { Testing } from 'cdktn';
import { GkeLinuxNodePool, GkeWindowsNodePool, HybridGkeStack, HybridGkeStackProps } from '../../src/gke';

/** A GKE stack in a fresh app: add node pools to `stack.cluster`. */
export function gkeStack(props: Partial<HybridGkeStackProps> = {}): HybridGkeStack {
  return new HybridGkeStack(Testing.app(), 'gke-test', { project: 'my-project', region: 'europe-north1', clusterName: 'gke-test', ...props });
}

/** The working shape: one Linux pool for kube-dns and one Windows Server 2022 pool. */
export function hybridGke(props: Partial<HybridGkeStackProps> = {}): { stack: HybridGkeStack; linux: GkeLinuxNodePool; windows: GkeWindowsNodePool } {
  const stack = gkeStack(props);
  const linux = new GkeLinuxNodePool(stack.cluster, 'linux', { machineType: 'e2-standard-4' });
  const windows = new GkeWindowsNodePool(stack.cluster, 'windows', { machineType: 'n2-standard-4' });
  return { stack, linux, windows };
}

/** The message synth fails with, or '' when it passes. */
export function synthError(stack: HybridGkeStack): string {
  try {
    Testing.synth(stack, true);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
