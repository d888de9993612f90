/**
 * The one module that loads cdk8s-plus. The workload constructs build on cdk8s-plus-33, the major
 * `cdk8s init` installs (cdk8s maintains the three newest majors, so 28 is out of support);
 * `WindowsPod` also takes workloads of cdk8s-plus-28, the major this library started on, and
 * works with the major that made the object. Other majors are refused with a message naming them.
 */
import type * as kplus33 from 'cdk8s-plus-33';
import type { IConstruct } from 'constructs';
import { fail } from '../core/errors';

/** The cdk8s-plus module the constructs use: cdk8s-plus-33's API, which cdk8s-plus-28 shares for the members used here. */
export type Cdk8sPlus = typeof kplus33;

/** The package the constructs build on. */
export const CDK8S_PLUS = 'cdk8s-plus-33';
/** The packages whose workloads `WindowsPod` takes; both are tested in CI from the packed tarball. */
export const CDK8S_PLUS_SUPPORTED: readonly string[] = [CDK8S_PLUS, 'cdk8s-plus-28'];

/** The cdk8s-plus majors a project has, newest first (only for messages). */
function installedMajors(): string[] {
  const found: string[] = [];
  for (let major = 40; major >= 17; major--) {
    try {
      require.resolve(`cdk8s-plus-${major}`);
      found.push(`cdk8s-plus-${major}`);
    } catch {
      // not installed
    }
  }
  return found;
}

function checkInstalled(): void {
  try {
    require.resolve(CDK8S_PLUS);
  } catch {
    const others = installedMajors();
    throw new Error(
      `[cdk-hybrid-windows/workloads] ${CDK8S_PLUS} is not installed${others.length > 0 ? ` (this project has ${others.join(', ')})` : ''}, and the Windows workload constructs build on it. `
      + `Fix: npm install ${CDK8S_PLUS} (it sits beside another major; WindowsPod also takes cdk8s-plus-28 workloads).`,
    );
  }
}
checkInstalled();

/** cdk8s-plus-33, for the objects the constructs create (loaded after the check above). */
export * as kplus from 'cdk8s-plus-33';
import * as plus33 from 'cdk8s-plus-33';

/** jsii's run-time type information on every cdk8s-plus class (`{ fqn: 'cdk8s-plus-33.Deployment' }`), inherited by subclasses. */
const JSII_RTTI = Symbol.for('jsii.rtti');

/** The cdk8s-plus package that made `object`, e.g. `cdk8s-plus-28`, or undefined for an object of no cdk8s-plus. */
export function cdk8sPlusPackageOf(object: object): string | undefined {
  const fqn = (object.constructor as unknown as { [JSII_RTTI]?: { fqn?: string } })[JSII_RTTI]?.fqn;
  const name = fqn?.split('.')[0];
  return name?.startsWith('cdk8s-plus-') ? name : undefined;
}

/**
 * The cdk8s-plus module of `object`'s major, to build its containers, probes and tolerations with
 * the classes it knows. Refuses a major the constructs are not tested with, and a second copy of a
 * major (which would hand the object classes it does not know).
 */
export function cdk8sPlusOf(object: IConstruct): Cdk8sPlus {
  const name = cdk8sPlusPackageOf(object);
  if (name === undefined) {
    fail(object, `${object.constructor.name} is not a cdk8s-plus object`, `pass a Pod, Deployment, StatefulSet, DaemonSet, Job or CronJob of ${CDK8S_PLUS}`);
  }
  if (!CDK8S_PLUS_SUPPORTED.includes(name)) {
    fail(object, `the workload is a ${name} object, and WindowsPod works with ${CDK8S_PLUS_SUPPORTED.join(' and ')}`, `create it with ${CDK8S_PLUS} (import * as kplus from '${CDK8S_PLUS}'), the major cdk8s init installs`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module: Cdk8sPlus = name === CDK8S_PLUS ? plus33 : require(name);
  if (!(object instanceof module.Resource)) {
    fail(object, `the workload comes from another copy of ${name} than the one cdk-hybrid-windows resolves`, `npm dedupe, so that one copy of ${name} is installed`);
  }
  return module;
}
