import { Duration } from 'cdk8s';
import type { PropEntry, PropKind } from '../../src/core/props-spec';
import { MACHINE_DEPLOYMENT_POOL_OPTIONS } from '../../src/capi/machine-deployment-pool';
import { LINUX_WORKER_POOL_PROPS } from '../../src/cluster/linux-worker-pool';
import { REMOTE_WINDOWS_WORKER_POOL_PROPS } from '../../src/remote/remote-windows-worker-pool';
import { judgeProp, propsOf, SpecSubject, SUBJECTS, valuesFor } from '../support/props-spec';

/**
 * The Cluster API pools' specs are composed from the core's entries (MACHINE_DEPLOYMENT_POOL_OPTIONS
 * spread into each pool's spec): every pool declares the same entry for a base prop, and the
 * generated property test (test/support/props-spec.ts) catches a pool whose entry for it is broken.
 */

test('every Cluster API pool spec declares the base props with the core\'s own entries', () => {
  for (const spec of [LINUX_WORKER_POOL_PROPS, REMOTE_WINDOWS_WORKER_POOL_PROPS]) {
    for (const [key, entry] of Object.entries(MACHINE_DEPLOYMENT_POOL_OPTIONS)) {
      // Remote pools declare replicas again: the remote-pools rule judges them against the hosts.
      if (key !== 'replicas' || spec === LINUX_WORKER_POOL_PROPS) expect([key, (spec.entries as Record<string, PropEntry>)[key]]).toEqual([key, entry]);
    }
    expect(spec.exclusions.map((x) => x.props)).toEqual([['replicas', 'autoscaling']]);
  }
});

test('a pool spec whose nodeDrainTimeout takes any value (a parse that forgot it) fails the generated property test; the declared entry passes', () => {
  const subject = SUBJECTS.find((s) => s.name === 'LinuxWorkerPool') as SpecSubject;
  const prop = propsOf(subject.spec).find((p) => p.name === 'nodeDrainTimeout')!;
  const failures = () => judgeProp(subject, prop, valuesFor(prop));
  expect(failures()).toEqual([]);
  const entries = LINUX_WORKER_POOL_PROPS.entries as Record<string, PropEntry>;
  const declared = entries.nodeDrainTimeout;
  const anything: PropKind = { parse: (_at, value) => value, constraint: 'anything', edges: [Duration.millis(1500)] };
  entries.nodeDrainTimeout = { kind: anything };
  try {
    // Values that are no Duration (a number, a string, a plain object) reach `.toSeconds()`.
    const found = failures();
    expect(found.length).toBeGreaterThan(3);
    expect(found.join('\n')).toMatch(/raw TypeError/);
  } finally {
    entries.nodeDrainTimeout = declared;
  }
});
