import { REMOTE_RULES } from '../remote/remote-rules';
import { handOff } from '../handoff/handoff';
import type { ManifestRule } from '../engine/graph';
import { registry } from '../engine/rule';
import { awsCluster, awsNetwork } from './aws-cluster';
import { failureDomains, imageLookups, keyPairs } from './aws-machines';
import { awsTags } from './aws-tags';
import { CRD_CEL_RULE } from './crd-cel';
import { k0smotronWebhooks } from './k0smotron-webhooks';
import { healthChecks, machineDeployments, machineNaming, versionSkew } from './machines';
import { unjudgedPools } from './unjudged';
import { clusterNetwork, clusterReferences, contentNames, controlPlane, uniqueNames } from './objects';
import { windowsClusters, windowsPools } from './windows';
import { KARPENTER_RULES } from '../karpenter/karpenter-rules';
import { AUTOSCALING_RULES } from '../autoscaling/autoscaling-rules';
import { CAPZ_RULES } from '../capz/capz-rules';
import { fleetLabelRule } from './fleet';

/**
 * The cluster rules, over the final objects of Cluster API + k0smotron and the infrastructure
 * providers: each follows the references the controllers follow (Cluster → K0sControlPlane and
 * its infrastructure cluster, MachineDeployment → K0sWorkerConfigTemplate and its machine
 * template, MachineHealthCheck → MachineDeployments) and judges what the controllers, k0s and the
 * kubelet will do with the values found there. Every cluster rule, in the order messages are
 * reported; the registry refuses two of one name.
 */
export const CLUSTER_RULES: readonly ManifestRule[] = registry<ManifestRule>(
  [uniqueNames, clusterReferences, clusterNetwork, controlPlane, k0smotronWebhooks, awsCluster, awsTags, awsNetwork, keyPairs, imageLookups, machineDeployments, failureDomains, machineNaming, versionSkew, unjudgedPools, windowsPools, windowsClusters, fleetLabelRule, healthChecks, contentNames],
  REMOTE_RULES,
  KARPENTER_RULES,
  AUTOSCALING_RULES,
  CAPZ_RULES,
  [handOff, CRD_CEL_RULE],
);
