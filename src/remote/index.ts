export * from './remote-hybrid-cluster';
export * from './remote-linux-worker-pool';
export * from './remote-windows-worker-pool';
export type { RemoteHost, RemoteAccessProps } from './remote-machines';
export type { RemoteWorkerPoolProps } from './remote-worker-pool';
