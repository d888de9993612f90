import type { PropsOfFields } from '../rules/engine/judge';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { Cluster } from '../generated/cluster-api-cluster.x-k8s.io';
import { K0sControlPlane, K0SControlPlaneSpecUpdateStrategy as L1UpdateStrategy } from '../generated/k0smotron-controlplane.cluster.x-k8s.io';
import { apiGroupOf } from '../platform/conventions';
import { fleetLabels } from '../platform/labels';
import { k0sNetworkConfig, KubernetesNetworkProps } from './kubernetes-network';
import { typedApiObject } from './typed-api-object';

/** What a k0s control plane is, whatever infrastructure its machines run on. */
export interface K0sControlPlaneOptions {
  readonly replicas: number;
  readonly k0sVersion: string;
  /** k0smotron's `updateStrategy`: InPlace, Recreate or RecreateDeleteFirst. */
  readonly updateStrategy: string;
  readonly enableWorker?: boolean;
  readonly untaintedControllers?: boolean;
  readonly apiExtraArgs?: Record<string, string>;
  readonly network: Required<KubernetesNetworkProps>;
  /** The controllers' machine template (AWSMachineTemplate, RemoteMachineTemplate). */
  readonly machineTemplate: ApiObject;
}

/** The K0sControlPlane (k0smotron) of a cluster named `name`. */
export function k0sControlPlane(scope: Construct, name: string, o: K0sControlPlaneOptions): ApiObject {
  return typedApiObject(scope, 'K0sControlPlane', K0sControlPlane, {
    metadata: { name },
    spec: {
      replicas: o.replicas,
      version: o.k0sVersion,
      updateStrategy: o.updateStrategy as L1UpdateStrategy,
      k0SConfigSpec: {
        args: o.enableWorker ? ['--enable-worker', ...(o.untaintedControllers ? ['--no-taints'] : [])] : undefined,
        k0S: {
          apiVersion: 'k0s.k0sproject.io/v1beta1',
          kind: 'ClusterConfig',
          metadata: { name: 'k0s' },
          spec: {
            api: o.apiExtraArgs ? { extraArgs: o.apiExtraArgs } : undefined,
            network: k0sNetworkConfig(o.network),
            telemetry: { enabled: false },
          },
        },
      },
      machineTemplate: {
        // k0smotron's machine template reference is a classic ObjectReference: apiVersion, not apiGroup.
        infrastructureRef: { apiVersion: o.machineTemplate.apiVersion, kind: o.machineTemplate.kind, name: o.machineTemplate.name },
      },
    },
  });
}

/** The Cluster (`cluster.x-k8s.io`) that ties a control plane and an infrastructure cluster together. */
export function capiCluster(scope: Construct, name: string, o: {
  readonly network: Required<KubernetesNetworkProps>;
  readonly controlPlane: ApiObject;
  readonly infrastructure: ApiObject;
  readonly controlPlaneEndpoint?: { readonly host: string; readonly port: number };
}): ApiObject {
  return typedApiObject(scope, 'Cluster', Cluster, {
    // Linux-only until a Windows pool adds its build (WorkerPool).
    metadata: { name, labels: fleetLabels([]) },
    spec: {
      controlPlaneEndpoint: o.controlPlaneEndpoint,
      clusterNetwork: {
        pods: { cidrBlocks: [o.network.podCidr] },
        services: { cidrBlocks: [o.network.serviceCidr] },
        serviceDomain: 'cluster.local',
      },
      controlPlaneRef: { apiGroup: apiGroupOf(o.controlPlane.apiVersion), kind: o.controlPlane.kind, name: o.controlPlane.name },
      infrastructureRef: { apiGroup: apiGroupOf(o.infrastructure.apiVersion), kind: o.infrastructure.kind, name: o.infrastructure.name },
    },
  });
}

/**
 * The props behind the Cluster's and K0sControlPlane's fields that the rules name, the same on
 * every cluster construct, for messages at construction.
 * @internal
 */
export const CLUSTER_PROPS_OF_FIELDS: PropsOfFields = {
  'Cluster metadata.name': 'name',
  'Cluster spec.clusterNetwork.pods': 'network.podCidr',
  'Cluster spec.clusterNetwork.services': 'network.serviceCidr',
  'K0sControlPlane spec.version': 'k0sVersion',
  'K0sControlPlane spec.replicas': 'controlPlane.replicas',
};
