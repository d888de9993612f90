/**
 * The workload pieces that need no cdk8s-plus: the API server's pod rules, Linux pinning, image
 * release checks and the Hyper-V RuntimeClass. The package root exports these, so that users who
 * only build clusters never load cdk8s-plus.
 */
export * from '../rules/pods/validate-pod-spec';
export * from '../rules/pods/pod-template';
export * from './image-compatibility';
export * from '../rules/pods/windows-pod-rules';
export * from '../rules/pods/eks-pod-rules';
export * from './pod-template-policy';
export * from './hybrid-chart';
export * from './hyperv-runtime-class';
export * from './log-monitor';
