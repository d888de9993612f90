/**
 * The Windows workload constructs (cdk8s-plus-33): `WindowsWorkload`, `WindowsPod`,
 * `WindowsExporter`, `HybridChart` and the rest, with the workload pieces of the package root.
 * @module cdk-hybrid-windows/workloads
 */
// Before the rest, so that the modules below are read from Node.js's compile cache (src/core/compile-cache.ts).
import '../core/compile-cache';
// Then: a clear message when cdk8s-plus-33 is missing, before any module needs it.
import './cdk8s-plus';

export * from './core';
export * from './container-defaults';
export * from './windows-pod';
export * from './windows-workload';
export * from './windows-exporter';
export * from './windows-csi';
export * from './aws-role-service-account';
export * from './gmsa';
export * from './windows-fluent-bit';
