/**
 * The workload constructs build on cdk8s-plus-28 (Kubernetes 1.28 API types, which every newer
 * API server serves). A project that has only another major (`cdk8s init` installs
 * cdk8s-plus-33 today) gets this message instead of "Cannot find module" or a type error deep in
 * cdk8s-plus.
 */
function checkCdk8sPlus(): void {
  try {
    require.resolve('cdk8s-plus-28');
  } catch {
    throw new Error(
      '[cdk-hybrid-windows/workloads] cdk8s-plus-28 is not installed, and the Windows workload constructs build on it. '
      + 'Fix: npm install cdk8s-plus-28 (it can sit beside another cdk8s-plus major; use cdk8s-plus-28 objects with these constructs).',
    );
  }
}
checkCdk8sPlus();
