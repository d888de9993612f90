import * as fc from 'fast-check';
import { IntOrPercent, resolveRollout } from '../../src/platform/rollout';
import { validateManifests } from '../../src/rules';
import { fixedHostRollout } from '../../src/remote/remote-machines';
import { synthObjects } from '../support/synth';
import { remoteApp } from './fixture';

/**
 * A model of a MachineDeployment rolling out onto fixed hosts.
 *
 * CAPI (cluster-api v1.14.0 core/reconcilers/machinedeployment): each reconcile scales the new
 * MachineSet up while all machines < replicas + maxSurge, never past replicas
 * (mdutil.NewMSNewReplicas), then scales old MachineSets down while the available machines stay
 * >= replicas - maxUnavailable, counting unavailable new machines against it
 * (machinedeployment_rollout_rollingupdate.go, reconcileOldMachineSetsRollingUpdate).
 *
 * k0smotron (v2.1.0 internal/controller/infrastructure/remote_machine_controller.go): a new
 * machine reserves the first free PooledRemoteMachine of its pool, or requeues until one is free
 * (ErrPooledMachineNotFound); a deleted machine is cleaned up and its host returned to the pool
 * (returnMachineToPool). A machine with a host is provisioned and becomes available.
 */
interface Outcome {
  /** Every old machine was replaced by an available new one. */
  readonly completed: boolean;
  /** Some machine existed with no host for it. */
  readonly waitedForHost: boolean;
}

function rollOut(replicas: number, hosts: number, maxSurge?: IntOrPercent, maxUnavailable?: IntOrPercent): Outcome {
  const limits = resolveRollout(replicas, maxSurge, maxUnavailable);
  let old = replicas;
  let newAvailable = 0;
  let newProvisioning = 0;
  let newWaiting = 0;
  let free = hosts - replicas;
  let waitedForHost = false;
  const reserve = () => {
    const taken = Math.min(free, newWaiting);
    free -= taken;
    newWaiting -= taken;
    newProvisioning += taken;
  };
  for (let step = 0; step < 4 * replicas + 8; step++) {
    if (old === 0 && newAvailable === replicas) return { completed: true, waitedForHost };
    const before = [old, newAvailable, newProvisioning, newWaiting].join();
    // The new MachineSet scales up.
    const newAll = newAvailable + newProvisioning + newWaiting;
    const room = replicas + limits.maxSurge - (old + newAll);
    if (room > 0) newWaiting += Math.min(room, replicas - newAll);
    reserve();
    waitedForHost ||= newWaiting > 0;
    // The old MachineSets scale down; each deleted machine's host returns to the pool.
    const minAvailable = Math.max(replicas - limits.maxUnavailable, 0);
    const total = old + newAvailable + newProvisioning + newWaiting;
    const newUnavailable = newProvisioning + newWaiting;
    const scaleDown = Math.max(0, Math.min(old, total - minAvailable - newUnavailable, old + newAvailable - minAvailable));
    old -= scaleDown;
    free += scaleDown;
    reserve();
    // Machines with a host are provisioned.
    newAvailable += newProvisioning;
    newProvisioning = 0;
    if ([old, newAvailable, newProvisioning, newWaiting].join() === before) return { completed: false, waitedForHost };
  }
  return { completed: old === 0 && newAvailable === replicas, waitedForHost };
}

describe('the model', () => {
  test('CAPI\'s default rollout with no spare host waits for a host forever', () => {
    expect(rollOut(3, 3)).toEqual({ completed: false, waitedForHost: true });
  });

  test('CAPI\'s default rollout with a spare host, and maxSurge 0 without one, complete without waiting', () => {
    expect(rollOut(3, 4)).toEqual({ completed: true, waitedForHost: false });
    expect(rollOut(3, 3, 0, 1)).toEqual({ completed: true, waitedForHost: false });
  });

  test('CAPI\'s fencepost resolution (mdutil.ResolveFenceposts): surge rounds up, unavailable down, both 0 means unavailable 1', () => {
    expect(resolveRollout(10, '25%', '25%')).toEqual({ maxSurge: 3, maxUnavailable: 2 });
    expect(resolveRollout(1, '1%', '25%')).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(resolveRollout(3, 0, '10%')).toEqual({ maxSurge: 0, maxUnavailable: 1 });
    expect(resolveRollout(0, 0, 1)).toEqual({ maxSurge: 0, maxUnavailable: 0 });
    // core/webhooks/admission/machinedeployment.go defaults: maxSurge 1, maxUnavailable 0.
    expect(resolveRollout(3)).toEqual({ maxSurge: 1, maxUnavailable: 0 });
  });
});

describe('rollouts on fixed hosts', () => {
  test('for any replicas and hosts, the pool\'s rollout completes and never waits for a host that does not exist', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), (hosts, spare) => {
      const replicasOf = Math.max(0, hosts - spare);
      const { app, windows } = remoteApp({ windows: { hosts: Array.from({ length: hosts }, (_, i) => ({ address: `10.0.2.${i + 1}` })), replicas: replicasOf } });
      const objects = synthObjects(app);
      const md = objects.find((o) => o.kind === 'MachineDeployment' && o.metadata.name === windows!.baseName)!;
      const pooled = objects.filter((o) => o.kind === 'PooledRemoteMachine' && o.spec.pool === windows!.baseName);
      const rolling = md.spec.rollout.strategy.rollingUpdate;
      expect(rollOut(md.spec.replicas, pooled.length, rolling.maxSurge, rolling.maxUnavailable)).toEqual({ completed: true, waitedForHost: false });
    }), { numRuns: 25 });
  });

  test('fixedHostRollout, for any replicas and hosts >= replicas', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }), (replicas, spare) => {
      const r = fixedHostRollout(replicas, replicas + spare);
      expect(rollOut(replicas, replicas + spare, r.maxSurge, r.maxUnavailable)).toEqual({ completed: true, waitedForHost: false });
    }));
  });

  const limit = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`));

  test('the remote-pools rule reports a rollout exactly when the model waits for a host; with maxUnavailable 0 and no spare host the wait never ends', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 3 }), limit, limit, (replicas, spare, maxSurge, maxUnavailable) => {
      const hosts = replicas + spare;
      const outcome = rollOut(replicas, hosts, maxSurge, maxUnavailable);
      const reported = validateManifests(poolObjects(replicas, hosts, maxSurge, maxUnavailable)).filter((v) => v.rule === 'remote-pools');
      expect(reported.length > 0).toBe(outcome.waitedForHost);
      if (outcome.waitedForHost && spare === 0 && resolveRollout(replicas, maxSurge, maxUnavailable).maxUnavailable === 0) expect(outcome.completed).toBe(false);
      if (!outcome.waitedForHost) expect(outcome.completed).toBe(true);
    }), { numRuns: 300 });
  });
});

/** A MachineDeployment on a RemoteMachineTemplate whose pool has `hosts` PooledRemoteMachines. */
function poolObjects(replicas: number, hosts: number, maxSurge: IntOrPercent, maxUnavailable: IntOrPercent) {
  return [
    {
      apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'md' },
      spec: {
        clusterName: 'c', replicas,
        rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } } },
        template: { spec: { clusterName: 'c', infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'RemoteMachineTemplate', name: 't' } } },
      },
    },
    { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'RemoteMachineTemplate', metadata: { name: 't' }, spec: { template: { spec: { pool: 'p' } } } },
    ...Array.from({ length: hosts }, (_, i) => ({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'PooledRemoteMachine', metadata: { name: `p-${i}` },
      spec: { pool: 'p', machine: { address: `10.0.0.${i + 1}`, sshKeyRef: { name: 'k' } } },
    })),
  ];
}
