import { Testing } from 'cdktn';
import { AksLinuxNodePool, AksWindowsNodePool, HybridAksStack, HybridAksStackProps } from '../../src/aks';

/** An AKS stack in a fresh app: add pools to `stack.cluster`. */
export function aksStack(props: Partial<HybridAksStackProps> = {}): HybridAksStack {
  return new HybridAksStack(Testing.app(), 'aks-test', { location: 'westeurope', clusterName: 'aks-test', kubernetesVersion: '1.34', ...props });
}

/** The working shape: the System pool, a Linux user pool and a Windows Server 2022 pool. */
export function hybridAks(props: Partial<HybridAksStackProps> = {}): { stack: HybridAksStack; linux: AksLinuxNodePool; windows: AksWindowsNodePool } {
  const stack = aksStack(props);
  const linux = new AksLinuxNodePool(stack.cluster, 'linux', { vmSize: 'Standard_D4ds_v5' });
  const windows = new AksWindowsNodePool(stack.cluster, 'win', { vmSize: 'Standard_D4ds_v5' });
  return { stack, linux, windows };
}

/** The message synth fails with, or '' when it passes. */
export function synthError(stack: HybridAksStack): string {
  try {
    Testing.synth(stack, true);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}
