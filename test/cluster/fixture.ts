import { App, Chart } from 'cdk8s';
import {
  HybridCluster,
  HybridConfigError,
  HybridClusterProps,
  LinuxWorkerPool,
  LinuxWorkerPoolProps,
  MachineImage,
  WindowsWorkerPool,
  WindowsWorkerPoolProps,
} from '../../src';

export const LINUX_AMI = MachineImage.id('ami-0fa91bc90632c73c9');
export const WINDOWS_AMI = MachineImage.id('ami-010e40c6557403885');

export interface FixtureOptions {
  cluster?: Partial<HybridClusterProps>;
  /** Linux pool props; null for no Linux pool. */
  linux?: Partial<LinuxWorkerPoolProps> | null;
  /** Windows pool props; null for no Windows pool. */
  windows?: Partial<WindowsWorkerPoolProps> | null;
}

/** A valid hybrid cluster (the example), with one part changed per test. */
export function hybridCluster(options: FixtureOptions = {}) {
  const app = new App();
  const chart = new Chart(app, 'mgmt');
  const cluster = new HybridCluster(chart, 'prod', {
    region: 'eu-north-1',
    k0sVersion: 'v1.34.10+k0s.0',
    sshKeyName: 'ops',
    zones: ['eu-north-1a', 'eu-north-1b'],
    ...options.cluster,
    controlPlane: { replicas: 3, instanceType: 't3.large', ami: LINUX_AMI, ...options.cluster?.controlPlane },
  });
  const linux = options.linux === null ? undefined
    : new LinuxWorkerPool(cluster, 'linux', { replicas: 2, instanceType: 't3.large', ami: LINUX_AMI, ...options.linux });
  const windows = options.windows === null ? undefined
    : new WindowsWorkerPool(cluster, 'win', { replicas: 2, instanceType: 't3.xlarge', ami: WINDOWS_AMI, ...options.windows });
  return { app, chart, cluster, linux, windows };
}

/** The HybridConfigError the fixture with `options` throws at construction; fails when it constructs. */
export function constructionError(options: FixtureOptions): HybridConfigError {
  try {
    hybridCluster(options);
  } catch (e) {
    if (e instanceof HybridConfigError) return e;
    throw e;
  }
  throw new Error('constructed without an error');
}
