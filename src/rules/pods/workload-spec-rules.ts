import { cronScheduleProblem, timeZoneProblem } from '../../platform/cron-schedule';
import { wholePercent } from '../../platform/rollout';
import { eachItem, Json, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';

// What kube-apiserver's Go validation refuses in workload specs beyond the OpenAPI schema (which
// has no minimum and no cross-field rule): kubernetes v1.34 pkg/apis/apps/validation/validation.go
// and pkg/apis/batch/validation/validation.go, after the defaults of pkg/apis/apps/v1/defaults.go
// and pkg/apis/batch/v1/defaults.go (the API server defaults before it validates, so an absent
// field is judged at its default, never refused for being absent). Enums (strategy types,
// podManagementPolicy, concurrencyPolicy) and types are the schema rule's.

/** The apiVersion each judged kind is served at. */
const JUDGED = new Map([
  ['Deployment', 'apps/v1'], ['ReplicaSet', 'apps/v1'], ['StatefulSet', 'apps/v1'], ['DaemonSet', 'apps/v1'],
  ['Job', 'batch/v1'], ['CronJob', 'batch/v1'],
]);

type Report = (field: string, what: string, fix: string) => void;

/**
 * Calls `judge` for each judged object among the sources, a `v1 List`'s items too (their fields
 * prefixed `items[i].`), with a `report` that names the field; returns the findings.
 */
function judgeWorkloads(graph: ManifestGraph, kinds: ReadonlySet<string>, judge: (kind: string, spec: Json, report: Report) => void): Finding[] {
  const out: Finding[] = [];
  // One report function for the run, reading the object being judged: no closure per object.
  let source: ManifestSource;
  let prefix = '';
  const report: Report = (field, what, fix) => out.push(violation(source, `${prefix}${field}: ${what}`, fix.replace(/\{\}/g, prefix), `${prefix}${field}`));
  const visit = (item: Json, at: string) => {
    const kind = item?.kind;
    if (!kinds.has(kind) || JUDGED.get(kind) !== item.apiVersion) return;
    const spec = item.spec;
    if (spec === null || typeof spec !== 'object') return;
    prefix = at;
    judge(kind, spec, report);
  };
  for (source of graph.sources) eachItem(source.manifest, visit);
  return out;
}

/** A field the API server refuses below 0 (ValidateNonnegativeField), by its dotted path under `spec`. */
interface Count {
  readonly field: string;
  readonly segments: readonly string[];
}
const counts = (...fields: string[]): readonly Count[] => fields.map((field) => ({ field, segments: field.split('.') }));

/** The Job fields ValidateNonnegativeField checks (validateJobSpec), for a Job's spec and a CronJob's job template. */
const JOB_COUNTS = counts('parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes');

/**
 * Per kind, the spec fields that may not be negative: ValidateDeploymentSpec, ValidateReplicaSetSpec,
 * ValidateStatefulSetSpec (not its revisionHistoryLimit, which it does not check), ValidateDaemonSetSpec,
 * validateJobSpec, validateCronJobSpec.
 */
const COUNTS = new Map<string, readonly Count[]>([
  ['Deployment', counts('replicas', 'minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds')],
  ['ReplicaSet', counts('replicas', 'minReadySeconds')],
  ['StatefulSet', counts('replicas', 'minReadySeconds', 'ordinals.start')],
  ['DaemonSet', counts('minReadySeconds', 'revisionHistoryLimit')],
  ['Job', JOB_COUNTS],
  ['CronJob', counts('startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit')],
]);

/** Whether an update strategy's type is the rolling one: written so, or left out (the default). */
const rolling = (type: unknown) => type === undefined || type === null || type === '' || type === 'RollingUpdate';

const COUNTS_KINDS: ReadonlySet<string> = new Set(COUNTS.keys());
const STATEFULSET_PARTITION = counts('updateStrategy.rollingUpdate.partition');

/** SetDefaults_Deployment: an absent progressDeadlineSeconds is 600. */
const DEFAULT_PROGRESS_DEADLINE = 600;

function negatives(spec: Json, path: string, fields: readonly Count[], report: Report): void {
  // Indexed loops: this runs for every workload, mostly before V8 has optimized it.
  for (let i = 0; i < fields.length; i++) {
    const { field, segments } = fields[i];
    let value = spec;
    for (let j = 0; j < segments.length && value !== undefined && value !== null; j++) value = value[segments[j]];
    if (typeof value === 'number' && value < 0) {
      report(`${path}.${field}`, `${value} is negative, which the API server refuses`, `set {}${path}.${field} to 0 or more, or leave it out for its default`);
    }
  }
}

/**
 * Counts, durations and limits of apps/v1 and batch/v1 workloads: none negative, and a Deployment's
 * progress deadline (600 when left out) above its minReadySeconds. `replicas: -1` passes the schema,
 * which has no minimum; the API server refuses it.
 */
export const WORKLOAD_COUNTS_RULE = rule<ManifestGraph>({
  name: 'workload-counts',
  scope: 'object',
  description: 'Replicas, minReadySeconds, history limits, deadlines and Job counts of Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs and CronJobs are not negative, and a Deployment\'s progressDeadlineSeconds exceeds its minReadySeconds',
  source: 'kubernetes v1.34 pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, validateRollingUpdateStatefulSet, ValidateDaemonSetSpec), pkg/apis/batch/validation/validation.go (validateJobSpec, validateCronJobSpec), pkg/apis/apps/v1/defaults.go (SetDefaults_Deployment)',
  check: (graph) => judgeWorkloads(graph, COUNTS_KINDS, (kind, spec, report) => {
    negatives(spec, 'spec', COUNTS.get(kind)!, report);
    if (kind === 'CronJob') {
      const job = spec.jobTemplate?.spec;
      if (job !== null && typeof job === 'object') negatives(job, 'spec.jobTemplate.spec', JOB_COUNTS, report);
    } else if (kind === 'StatefulSet') {
      // validateRollingUpdateStatefulSet checks the partition under a RollingUpdate type (also the default type).
      if (rolling(spec.updateStrategy?.type)) negatives(spec, 'spec', STATEFULSET_PARTITION, report);
    } else if (kind === 'Deployment') {
      const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
      const deadline = spec.progressDeadlineSeconds;
      if (typeof deadline === 'number' && deadline >= 0 && deadline <= minReady) {
        report('spec.progressDeadlineSeconds', `${deadline} is not greater than spec.minReadySeconds (${minReady}), which the API server refuses`,
          `set {}spec.progressDeadlineSeconds above {}spec.minReadySeconds (a rollout is judged stuck only after its pods had time to become available)`);
      } else if ((deadline === undefined || deadline === null) && minReady >= DEFAULT_PROGRESS_DEADLINE) {
        report('spec.minReadySeconds', `${minReady} is not below spec.progressDeadlineSeconds, which defaults to ${DEFAULT_PROGRESS_DEADLINE} when left out, and the API server refuses that`,
          `set {}spec.progressDeadlineSeconds above {}spec.minReadySeconds, or lower {}spec.minReadySeconds below ${DEFAULT_PROGRESS_DEADLINE}`);
      }
    }
  }),
});

/** A maxSurge/maxUnavailable as getIntOrPercentValue reads it, or why ValidatePositiveIntOrPercent refuses it. */
function intOrPercent(value: unknown): { value: number; percent: boolean } | string | undefined {
  if (typeof value === 'string') {
    const percent = wholePercent(value);
    return percent !== undefined ? { value: percent, percent: true } : `"${value}" is neither a whole number nor a percentage such as "25%"`;
  }
  if (typeof value === 'number') return value < 0 ? `${value} is negative` : { value, percent: false };
  return undefined; // another type is the schema's to refuse
}

/**
 * Reads maxSurge and maxUnavailable of a rolling update at their defaults, reports what
 * ValidatePositiveIntOrPercent and IsNotMoreThan100Percent refuse, and returns both when valid.
 */
function surgeAndUnavailable(rollingUpdate: Json, path: string, defaults: { maxSurge: number | string; maxUnavailable: number | string }, capSurge: boolean, report: Report) {
  const read = (name: 'maxSurge' | 'maxUnavailable', cap: boolean) => {
    const written = rollingUpdate?.[name];
    const v = intOrPercent(written ?? defaults[name]);
    const field = `${path}.${name}`;
    if (typeof v === 'string') {
      report(field, `${v}, which the API server refuses`, `set {}${field} to a number of pods (0 or more) or a percentage such as "25%"`);
      return undefined;
    }
    if (v?.percent && cap && v.value > 100) {
      report(field, `${written} is more than 100%, which the API server refuses`, `set {}${field} to at most "100%"`);
      return undefined;
    }
    return v && { value: v.value, written: written !== undefined && written !== null };
  };
  const surge = read('maxSurge', capSurge);
  const unavailable = read('maxUnavailable', true);
  return surge && unavailable ? { surge, unavailable } : undefined;
}

/** The int-or-percent defaults of SetDefaults_Deployment and SetDefaults_DaemonSet. */
const DEPLOYMENT_ROLLING = { maxSurge: '25%', maxUnavailable: '25%' };
const DAEMONSET_ROLLING = { maxSurge: 0, maxUnavailable: 1 };

function judgeDeployment(spec: Json, report: Report): void {
  const strategy = spec.strategy;
  if (strategy?.type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      report('spec.strategy.rollingUpdate', 'is set under strategy type Recreate, which the API server refuses', 'remove {}spec.strategy.rollingUpdate, or set {}spec.strategy.type: RollingUpdate');
    }
    return;
  }
  // Left out, the rolling update is SetDefaults_Deployment's 25% and 25%, which pass.
  if (!rolling(strategy?.type) || strategy?.rollingUpdate === undefined || strategy?.rollingUpdate === null) return;
  // ValidateRollingUpdateDeployment: maxSurge may exceed 100%, maxUnavailable may not; not both 0.
  const both = surgeAndUnavailable(strategy?.rollingUpdate, 'spec.strategy.rollingUpdate', DEPLOYMENT_ROLLING, false, report);
  if (both && both.surge.value === 0 && both.unavailable.value === 0) {
    report('spec.strategy.rollingUpdate.maxUnavailable', 'is 0 and so is maxSurge: the rollout could never replace a pod, and the API server refuses it',
      'set {}spec.strategy.rollingUpdate.maxSurge or {}spec.strategy.rollingUpdate.maxUnavailable above 0');
  }
}

function judgeDaemonSet(spec: Json, report: Report): void {
  const strategy = spec.updateStrategy;
  // OnDelete: the API server checks nothing more; a rolling update left out is SetDefaults_DaemonSet's 0 and 1, which pass.
  if (!rolling(strategy?.type) || strategy?.rollingUpdate === undefined || strategy?.rollingUpdate === null) return;
  // ValidateRollingUpdateDaemonSet: both at most 100%, exactly one of them non-zero.
  const path = 'spec.updateStrategy.rollingUpdate';
  const both = surgeAndUnavailable(strategy?.rollingUpdate, path, DAEMONSET_ROLLING, true, report);
  if (!both) return;
  if (both.surge.value !== 0 && both.unavailable.value !== 0) {
    const defaulted = both.unavailable.written ? '' : ` (maxUnavailable defaults to ${DAEMONSET_ROLLING.maxUnavailable} when left out)`;
    report(`${path}.maxSurge`, `is not 0 while maxUnavailable is not 0${defaulted}: a DaemonSet rolls by surging or by taking pods down, not both, and the API server refuses it`,
      `set {}${path}.maxUnavailable: 0 to surge, or {}${path}.maxSurge: 0`);
  } else if (both.surge.value === 0 && both.unavailable.value === 0) {
    report(`${path}.maxUnavailable`, 'is 0 and so is maxSurge: the rollout could never replace a pod, and the API server refuses it',
      `set {}${path}.maxUnavailable or {}${path}.maxSurge above 0`);
  }
}

function judgeStatefulSet(spec: Json, report: Report): void {
  // ValidateStatefulSetSpec. Its maxUnavailable is not judged: while the MaxUnavailableStatefulSet
  // feature gate is off (alpha through 1.34, beta from 1.35: pkg/features/kube_features.go) the API
  // server drops the field rather than refusing it, and the rules do not know the cluster's version.
  const strategy = spec.updateStrategy;
  if (strategy?.type === 'OnDelete' && strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
    report('spec.updateStrategy.rollingUpdate', 'is set under updateStrategy type OnDelete, which the API server refuses', 'remove {}spec.updateStrategy.rollingUpdate, or set {}spec.updateStrategy.type: RollingUpdate');
  }
}

const ROLLOUT_KINDS: ReadonlySet<string> = new Set(['Deployment', 'DaemonSet', 'StatefulSet']);

/**
 * Rollout strategies of Deployments, DaemonSets and StatefulSets as the API server validates them
 * after defaulting: a rolling update's maxSurge and maxUnavailable are whole numbers or percentages,
 * maxUnavailable at most 100%, never both 0; a DaemonSet surges or takes pods down, not both; no
 * rollingUpdate under Recreate or OnDelete.
 */
export const ROLLOUT_STRATEGY_RULE = rule<ManifestGraph>({
  name: 'rollout-strategy',
  scope: 'object',
  description: 'Deployment, DaemonSet and StatefulSet rollout strategies are ones the API server takes: maxSurge and maxUnavailable numbers or percentages, at most 100% where capped, not both 0 (a DaemonSet: exactly one non-zero), no rollingUpdate under Recreate or OnDelete',
  source: 'kubernetes v1.34 pkg/apis/apps/validation/validation.go (ValidateDeploymentStrategy, ValidateRollingUpdateDeployment, ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet, ValidateStatefulSetSpec, ValidatePositiveIntOrPercent, IsNotMoreThan100Percent), pkg/apis/apps/v1/defaults.go (SetDefaults_Deployment, SetDefaults_DaemonSet)',
  check: (graph) => judgeWorkloads(graph, ROLLOUT_KINDS, (kind, spec, report) => {
    if (kind === 'Deployment') judgeDeployment(spec, report);
    else if (kind === 'DaemonSet') judgeDaemonSet(spec, report);
    else judgeStatefulSet(spec, report);
  }),
});

const CRONJOB_KINDS: ReadonlySet<string> = new Set(['CronJob']);

/**
 * A CronJob's schedule as the API server parses it (robfig/cron v3.0.1 `ParseStandard`,
 * `cronScheduleProblem`), with no time zone in it, and the forms of `timeZone` it refuses.
 */
export const CRONJOB_SCHEDULE_RULE = rule<ManifestGraph>({
  name: 'cronjob-schedule',
  scope: 'object',
  description: 'A CronJob\'s schedule is five cron fields within their ranges or a descriptor (@daily, @every 1h), with no TZ in it, and its timeZone is an IANA name',
  source: 'kubernetes v1.34 pkg/apis/batch/validation/validation.go (validateCronJobSpec, validateScheduleFormat, validateTimeZone); robfig/cron v3.0.1 parser.go (ParseStandard), spec.go (bounds)',
  check: (graph) => judgeWorkloads(graph, CRONJOB_KINDS, (_kind, spec, report) => {
    if (typeof spec.schedule === 'string') {
      const problem = cronScheduleProblem(spec.schedule);
      if (problem !== undefined) {
        report('spec.schedule', `"${spec.schedule}" is refused by the API server: ${problem}`,
          'write {}spec.schedule as five fields (minute hour day-of-month month day-of-week, e.g. "30 2 * * 1-5") or a descriptor such as @daily, and a time zone in {}spec.timeZone');
      }
    }
    if (typeof spec.timeZone === 'string') {
      const problem = timeZoneProblem(spec.timeZone);
      if (problem !== undefined) report('spec.timeZone', `${problem}, which the API server refuses`, 'set {}spec.timeZone to an IANA time zone such as Etc/UTC or Europe/Berlin, or leave it out');
    }
  }),
});

/** A Job spec's completion mode as defaulted (SetDefaults_Job: NonIndexed when left out). */
const indexed = (job: Json) => job.completionMode === 'Indexed';

/** validateJobSpec: maxParallelismForIndexedJob and maxFailedIndexesForIndexedJob. */
const MAX_INDEXED = 100_000;

function judgeJob(job: Json, path: string, report: Report): void {
  const num = (name: string) => (typeof job[name] === 'number' ? job[name] as number : undefined);
  const set = (name: string) => job[name] !== undefined && job[name] !== null;
  if (!indexed(job)) {
    for (const name of ['backoffLimitPerIndex', 'maxFailedIndexes', 'successPolicy']) {
      if (set(name)) report(`${path}.${name}`, 'needs completionMode: Indexed, which the API server requires for it', `set {}${path}.completionMode: Indexed, or remove {}${path}.${name}`);
    }
  } else {
    // SetDefaults_Job sets completions to 1 only when parallelism is left out too.
    if (!set('completions') && set('parallelism')) report(`${path}.completions`, 'is left out, and an Indexed Job needs it (the API server refuses the Job)', `set {}${path}.completions to the number of indexes`);
    const parallelism = num('parallelism');
    if (parallelism !== undefined && parallelism > MAX_INDEXED) report(`${path}.parallelism`, `${parallelism} is more than ${MAX_INDEXED}, the most an Indexed Job may run at once`, `set {}${path}.parallelism to at most ${MAX_INDEXED}`);
    const maxFailed = num('maxFailedIndexes');
    const completions = num('completions');
    if (maxFailed !== undefined && completions !== undefined && maxFailed > completions) {
      report(`${path}.maxFailedIndexes`, `${maxFailed} is more than completions (${completions}), which the API server refuses`, `set {}${path}.maxFailedIndexes to at most {}${path}.completions`);
    } else if (maxFailed !== undefined && maxFailed > MAX_INDEXED) {
      report(`${path}.maxFailedIndexes`, `${maxFailed} is more than ${MAX_INDEXED}, which the API server refuses`, `set {}${path}.maxFailedIndexes to at most ${MAX_INDEXED}`);
    }
  }
  if (set('maxFailedIndexes') && !set('backoffLimitPerIndex')) report(`${path}.backoffLimitPerIndex`, 'is left out beside maxFailedIndexes, which the API server refuses', `set {}${path}.backoffLimitPerIndex, or remove {}${path}.maxFailedIndexes`);
}

const JOB_KINDS: ReadonlySet<string> = new Set(['Job', 'CronJob']);

/**
 * A Job's per-index fields as validateJobSpec takes them: backoffLimitPerIndex, maxFailedIndexes and
 * successPolicy only for `completionMode: Indexed`, which needs completions (when parallelism is
 * set; both left out default to 1) and caps parallelism and maxFailedIndexes.
 */
export const JOB_INDEXED_RULE = rule<ManifestGraph>({
  name: 'job-indexed',
  scope: 'object',
  description: 'A Job\'s backoffLimitPerIndex, maxFailedIndexes and successPolicy come with completionMode: Indexed, which has completions, at most 100,000 in parallel and maxFailedIndexes at most completions',
  source: 'kubernetes v1.34 pkg/apis/batch/validation/validation.go (validateJobSpec), pkg/apis/batch/v1/defaults.go (SetDefaults_Job)',
  check: (graph) => judgeWorkloads(graph, JOB_KINDS, (kind, spec, report) => {
    if (kind === 'Job') judgeJob(spec, 'spec', report);
    else if (spec.jobTemplate?.spec !== null && typeof spec.jobTemplate?.spec === 'object') judgeJob(spec.jobTemplate.spec, 'spec.jobTemplate.spec', report);
  }),
});

/** Where each kind's pod template spec is. */
const TEMPLATE_SPEC = new Map([
  ['Deployment', 'spec.template.spec'], ['ReplicaSet', 'spec.template.spec'], ['StatefulSet', 'spec.template.spec'], ['DaemonSet', 'spec.template.spec'],
  ['Job', 'spec.template.spec'], ['CronJob', 'spec.jobTemplate.spec.template.spec'],
]);

/**
 * The restart policy and deadline a workload's pods may have: the apps/v1 controllers keep their
 * pods running (restartPolicy Always, which it defaults to; no activeDeadlineSeconds), a Job's pods
 * end (OnFailure or Never, so a Job that leaves it out is refused; Never beside a podFailurePolicy).
 */
export const WORKLOAD_RESTART_POLICY_RULE = rule<ManifestGraph>({
  name: 'workload-restart-policy',
  scope: 'object',
  description: 'Deployment, ReplicaSet, StatefulSet and DaemonSet pods restart Always and have no activeDeadlineSeconds; Job and CronJob pods set restartPolicy OnFailure or Never (Never beside a podFailurePolicy)',
  source: 'kubernetes v1.34 pkg/apis/apps/validation/validation.go (ValidatePodTemplateSpecForReplicaSet, ValidateStatefulSetSpec, ValidateDaemonSetSpec), pkg/apis/batch/validation/validation.go (validateJobSpec)',
  check: (graph) => judgeWorkloads(graph, COUNTS_KINDS, (kind, spec, report) => {
    const path = TEMPLATE_SPEC.get(kind)!;
    const job = kind === 'CronJob' ? spec.jobTemplate?.spec : spec;
    const pod = job?.template?.spec;
    if (pod === null || typeof pod !== 'object') return;
    const policy = pod.restartPolicy;
    if (kind === 'Job' || kind === 'CronJob') {
      if (policy === undefined || policy === null || policy === '' || policy === 'Always') {
        report(`${path}.restartPolicy`, `${policy === 'Always' ? 'is Always' : 'is left out (the pod default, Always)'}, and a Job's pods must end: the API server requires OnFailure or Never`, `set {}${path}.restartPolicy: Never (or OnFailure)`);
      } else if (policy === 'OnFailure' && job.podFailurePolicy !== undefined && job.podFailurePolicy !== null) {
        report(`${path}.restartPolicy`, 'is OnFailure beside a podFailurePolicy, which the API server refuses', `set {}${path}.restartPolicy: Never`);
      }
      return;
    }
    if (policy === 'OnFailure' || policy === 'Never') report(`${path}.restartPolicy`, `is ${policy}, and a ${kind} keeps its pods running: the API server takes only Always`, `remove {}${path}.restartPolicy (it defaults to Always)`);
    if (pod.activeDeadlineSeconds !== undefined && pod.activeDeadlineSeconds !== null) {
      report(`${path}.activeDeadlineSeconds`, `is set, and a ${kind}'s pods have no deadline: the API server refuses it`, `remove {}${path}.activeDeadlineSeconds`);
    }
  }),
});
