/**
 * Amazon EKS with Windows managed node groups (cdktf): `import … from 'cdk-hybrid-windows/eks'`.
 * Like `cdk-hybrid-windows/aws`, kept out of the package root; every file imports single provider
 * resources, and cdktf itself only through ./cdktf.
 * @module cdk-hybrid-windows/eks
 */
export * from './hybrid-eks-stack';
export * from './eks-cluster';
export * from './linux-node-group';
export * from './windows-node-group';
export * from './node-group';
export * from './node-role';
export * from './ami-type';
