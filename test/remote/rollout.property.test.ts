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

/**
 * A model of k0smotron v2.1.0 replacing controllers on fixed hosts
 * (internal/controller/controlplane/scale.go, reconcileMachines): a version change under InPlace
 * is applied in place; otherwise each reconcile first waits for the newest machine to be ready
 * (preflightChecks, isLatestMachineReady), then scales up while the machines stay within
 * calculateMaxSurge and fewer than `replicas` are up to date (isNeededScaleUp), else removes an
 * old machine while more than one remains (isNeededScaleDown). A new machine takes a free host or
 * waits for one (the RemoteMachine controller's pool reservation).
 */
function controlPlaneRollOut(replicas: number, hosts: number, strategy: string, change: 'version' | 'other'): Outcome {
  if (change === 'version' && strategy === 'InPlace') return { completed: true, waitedForHost: false };
  const maxSurge = strategy === 'RecreateDeleteFirst' && replicas >= 3 ? replicas : replicas + 1;
  let old = replicas;
  let fresh = 0;
  let free = hosts - replicas;
  for (let step = 0; step < 4 * replicas + 8; step++) {
    if (old === 0 && fresh === replicas) return { completed: true, waitedForHost: false };
    const active = old + fresh;
    if (active + 1 <= maxSurge && fresh < replicas) {
      if (free === 0) return { completed: false, waitedForHost: true }; // the newest machine never becomes ready
      free--;
      fresh++;
    } else if ((active > replicas || old > 0) && active - 1 >= 1) {
      old--;
      free++;
    } else {
      return { completed: false, waitedForHost: false };
    }
  }
  return { completed: old === 0 && fresh === replicas, waitedForHost: false };
}

describe('the control plane on fixed hosts (issue 24 point 1)', () => {
  test('the model: RecreateDeleteFirst from 3 replicas needs no spare host; Recreate and InPlace (a template change) do', () => {
    expect(controlPlaneRollOut(3, 3, 'RecreateDeleteFirst', 'other')).toEqual({ completed: true, waitedForHost: false });
    expect(controlPlaneRollOut(3, 3, 'InPlace', 'other')).toEqual({ completed: false, waitedForHost: true });
    expect(controlPlaneRollOut(1, 1, 'RecreateDeleteFirst', 'version')).toEqual({ completed: false, waitedForHost: true });
    expect(controlPlaneRollOut(3, 4, 'Recreate', 'other')).toEqual({ completed: true, waitedForHost: false });
  });

  test('the remote-pools rule refuses a control plane exactly when some change waits for a host (one InPlace controller on one host excepted: versions only)', () => {
    fc.assert(fc.property(fc.constantFrom(1, 3, 5), fc.integer({ min: 0, max: 2 }), fc.constantFrom('Recreate', 'RecreateDeleteFirst', 'InPlace'), (replicas, spare, strategy) => {
      const hosts = replicas + spare;
      const wedges = (['version', 'other'] as const).some((c) => controlPlaneRollOut(replicas, hosts, strategy, c).waitedForHost);
      const exempt = replicas === 1 && hosts === 1 && strategy === 'InPlace';
      let message = '';
      try {
        synthObjects(remoteApp({ cluster: { controlPlane: {
          hosts: Array.from({ length: hosts }, (_, i) => ({ address: `10.0.0.${i + 11}` })), sshKeySecret: 'k', replicas, updateStrategy: strategy as never,
        } } }).app);
      } catch (e) {
        message = (e as Error).message;
      }
      expect(/K0sControlPlane \S+ updateStrategy \w+ rolls out/.test(message) || /updateStrategy \w+ rolls out every change/.test(message)).toBe(wedges && !exempt);
    }), { numRuns: 40 });
  });

  test('the library\'s default never wedges where a strategy exists that does not', () => {
    for (const replicas of [1, 3, 5]) {
      for (const spare of [0, 1]) {
        const objects = synthObjects(remoteApp({ cluster: { controlPlane: { hosts: Array.from({ length: replicas + spare }, (_, i) => ({ address: `10.0.0.${i + 11}` })), sshKeySecret: 'k', replicas } } }).app);
        const strategy = objects.find((o) => o.kind === 'K0sControlPlane')!.spec.updateStrategy;
        const wedges = (['version', 'other'] as const).filter((c) => controlPlaneRollOut(replicas, replicas + spare, strategy, c).waitedForHost);
        expect({ replicas, spare, wedges }).toEqual({ replicas, spare, wedges: replicas === 1 && spare === 0 ? ['other'] : [] });
      }
    }
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
