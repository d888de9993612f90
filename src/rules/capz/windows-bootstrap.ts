import { CLOUDBASE_INIT_IGNORED_FIELDS, CLOUDBASE_INIT_MODULES, KUBELET_SERVICE_ANNOTATION, WindowsKubeletService } from '../../platform/capz';
import { describe, list, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { Pool, pools } from '../cluster/pools';
import { bootstrapSpec, kubeletArgs, nodeRegistrations } from './azure-pools';

/**
 * The rules of a Windows kubeadm bootstrap: what cloudbase-init runs of CABPK's cloud-config, the
 * paths of its files, and what the image's kubelet service reads of kubeadm's flags.
 */

/** The Windows kubeadm pools whose KubeadmConfigTemplate is written. */
function windowsKubeadmPools(graph: ManifestGraph): Array<Pool & { config: ManifestSource }> {
  return pools(graph).filter((p): p is Pool & { config: ManifestSource } => p.windows && p.bootstrap === 'kubeadm' && p.config !== undefined);
}

const SPEC = 'spec.template.spec';

/** Fields cloudbase-init never runs, a format it does not read, and commands cmd.exe cannot run. */
export const cloudbaseInitFields = rule<ManifestGraph>({
  name: 'cloudbase-init-fields',
  scope: 'object',
  description: 'A Windows kubeadm bootstrap uses only what cloudbase-init runs: no bootCommands, diskSetup or mounts, no Ignition, and commands cmd.exe runs (PowerShell scripts through powershell)',
  source: 'cloudbase/cloudbase-init 1.1.4 cloudbaseinit/plugins/common/userdataplugins/cloudconfigplugins/factory.py (PLUGINS), runcmd.py; cluster-api v1.14.0 bootstrap/kubeadm/pkg/cloudinit/node.go',
  check: (graph) => windowsKubeadmPools(graph).flatMap(({ config }) => {
    const spec = bootstrapSpec(config);
    const out: Finding[] = [];
    for (const [field, module] of Object.entries(CLOUDBASE_INIT_IGNORED_FIELDS)) {
      const value = spec[field];
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
      out.push(violation(config, `${field} becomes cloud-config ${module}, which cloudbase-init does not run on Windows (it runs ${CLOUDBASE_INIT_MODULES.join(', ')}): it is dropped in silence`,
        `remove ${SPEC}.${field}; do it in preKubeadmCommands (PowerShell through powershell) or in the image`, `${SPEC}.${field}`));
    }
    if (spec.format === 'ignition' || spec.ignition !== undefined) {
      out.push(violation(config, 'Ignition bootstrap data: Windows machines run cloudbase-init, which reads cloud-config only (CABPK\'s Ignition format is for Flatcar and Fedora CoreOS)',
        `remove ${SPEC}.format and ${SPEC}.ignition (cloud-config is the default)`, spec.format === 'ignition' ? `${SPEC}.format` : `${SPEC}.ignition`));
    }
    // cloudbase-init runs runcmd as one cmd.exe batch (runcmd.py, _unify_scripts): a .ps1 named as
    // the command is opened with its file association, not run.
    for (const key of ['preKubeadmCommands', 'postKubeadmCommands'] as const) {
      for (const [i, command] of list(spec[key]).entries()) {
        if (typeof command === 'string' && /^\s*["']?[^\s"']+\.ps1\b/i.test(command)) {
          out.push(violation(config, `${key}[${i}] "${command}" names a PowerShell script as a command, and cloudbase-init runs the commands as one cmd.exe batch, which does not run .ps1 files`,
            `write it as powershell -ExecutionPolicy Bypass -File ${command.trim()}`, `${SPEC}.${key}[${i}]`));
        }
      }
    }
    return out;
  }),
});

/** A Windows path, or a path Windows resolves on the system drive. */
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;
/** Characters Windows refuses in a file name (Win32 naming conventions: < > : " | ? *; ":" only after a drive letter). */
const REFUSED_IN_PATHS = /[<>"|?*]|^.{2,}:|^[^A-Za-z]:/;

/**
 * Each file a Windows bootstrap writes, as cloudbase-init writes it: at `os.path.abspath(path)`
 * (cloudbase/cloudbase-init 1.1.4 write_files.py, WriteFilesPlugin._process_item), so a path without a drive or
 * a leading "/" lands in cloudbase-init's working directory, and "/etc/x" at C:\etc\x.
 */
function fileProblems(config: ManifestSource, severity: 'violation' | 'advice'): Finding[] {
  const refuse = severity === 'violation';
  return list(bootstrapSpec(config).files).flatMap((f, i) => {
    const path = f?.path;
    const field = `${SPEC}.files[${i}].path`;
    if (typeof path !== 'string') return [];
    if (refuse && REFUSED_IN_PATHS.test(path)) return [violation(config, `files[${i}].path "${path}" holds a character Windows refuses in a path, and cloudbase-init fails to write it`, 'use a path such as c:/k/azure.json', field)];
    if (refuse && !DRIVE_PATH.test(path) && !path.startsWith('/')) {
      return [violation(config, `files[${i}].path "${path}" is relative: cloudbase-init writes it in its own working directory, where nothing on the machine looks for it`, `write it with a drive letter, e.g. c:/${path}`, field)];
    }
    if (!refuse && path.startsWith('/')) {
      return [violation(config, `files[${i}].path "${path}" is a Unix path: cloudbase-init writes it at ${`C:${path}`.replace(/\//g, '\\')} on the system drive, so make sure the Windows program that reads it looks there`,
        `write the Windows path it is read from (CAPZ's Windows flavor writes azure.json to c:/k/azure.json)`, field)];
    }
    return [];
  });
}

/** Files of a Windows bootstrap are written where Windows programs read them. */
export const windowsFiles = rule<ManifestGraph>({
  name: 'windows-files',
  scope: 'object',
  description: 'A Windows kubeadm bootstrap writes its files at absolute Windows paths (advice for Unix paths, which land on the system drive)',
  source: 'cloudbase/cloudbase-init 1.1.4 cloudbaseinit/plugins/common/userdataplugins/cloudconfigplugins/write_files.py (WriteFilesPlugin._process_item); cluster-api-provider-azure v1.26.0 templates/flavors/windows/machine-deployment-windows.yaml (c:/k/azure.json)',
  check: (graph) => windowsKubeadmPools(graph).flatMap(({ config }) => fileProblems(config, 'violation')),
  advise: (graph) => windowsKubeadmPools(graph).flatMap(({ config }) => fileProblems(config, 'advice')),
});

/** The Windows kubeadm pools with their machine template (where the image, and so its kubelet service, is said). */
function withMachines(graph: ManifestGraph): Array<{ pool: Pool; config: ManifestSource; machine?: ManifestSource }> {
  return windowsKubeadmPools(graph).map((p) => ({ pool: p, config: p.config, machine: graph.resolve(p.md, p.md.manifest.spec?.template?.spec?.infrastructureRef) }));
}

/** What a kubeadm bootstrap hands the kubelet through kubeadm-flags.env: kubelet flags and a worker's join taints, with their fields. */
function flagsOf(config: ManifestSource): Array<{ what: string; field: string }> {
  return nodeRegistrations(config).flatMap(({ registration, field }) => [
    ...kubeletArgs(registration, field).map((a) => ({ what: `--${a.name}`, field: a.field })),
    ...list(registration.taints).map((t, i) => ({ what: `taint ${t?.key}${t?.value !== undefined ? `=${t.value}` : ''}:${t?.effect}`, field: `${field}.taints[${i}]` })),
  ]);
}

/**
 * The kubelet service of a Windows image against what the bootstrap hands the kubelet. Which one
 * an image runs is not visible on the objects (image-builder's default changed under CAPZ's
 * flavor: `WindowsKubeletService`), so the machine template says it in `KUBELET_SERVICE_ANNOTATION`.
 */
export const windowsKubeletService = rule<ManifestGraph>({
  name: 'windows-kubelet-service',
  scope: 'object',
  description: `A Windows kubeadm pool whose image runs the kubelet as a native service (annotation ${KUBELET_SERVICE_ANNOTATION}: windows-service) hands it no kubelet flags, join taints or nssm commands, which that service drops; without the annotation, advice to say which`,
  source: 'kubernetes-sigs/image-builder v0.1.55 images/capi/packer/config/windows/common.json (windows_service_manager), ansible/windows/roles/kubernetes/tasks/sc.yml; image-builder#2011; kubernetes/kubernetes cmd/kubeadm/app/cmd/phases/join/kubelet.go (registerTaintsUsingFlags)',
  check: (graph) => withMachines(graph).flatMap(({ config, machine }) => {
    const service = machine?.manifest.metadata?.annotations?.[KUBELET_SERVICE_ANNOTATION];
    const field = `metadata.annotations.${KUBELET_SERVICE_ANNOTATION}`;
    const kinds = Object.values(WindowsKubeletService) as string[];
    if (service !== undefined && !kinds.includes(service)) {
      return [violation(machine!, `annotation ${KUBELET_SERVICE_ANNOTATION}: ${JSON.stringify(service)} names no kubelet service`, `write ${kinds.join(' or ')}`, field)];
    }
    if (service !== WindowsKubeletService.WINDOWS_SERVICE) return [];
    const out: Finding[] = flagsOf(config).map((f) => violation(config,
      `${f.what} for the kubelet: the image runs it as a native Windows service (${describe(machine!)} says ${service}), which never reads kubeadm's kubeadm-flags.env, so it is dropped in silence (image-builder#2011)`,
      'remove it, or set it where that kubelet reads: a KubeletConfiguration field (e.g. registerWithTaints) in a kubeadm patch (joinConfiguration.patches.directory, written by files), taints on the MachineDeployment (spec.template.spec.taints, with CAPI\'s MachineTaintPropagation feature gate); or run an image whose kubelet runs under nssm', f.field));
    for (const key of ['preKubeadmCommands', 'postKubeadmCommands'] as const) {
      for (const [i, command] of list(bootstrapSpec(config)[key]).entries()) {
        if (typeof command === 'string' && /\bnssm(\.exe)?\b/i.test(command)) {
          out.push(violation(config, `${key}[${i}] "${command}" runs nssm, which an image with a native kubelet service does not have`, `remove ${SPEC}.${key}[${i}] (the native service starts the kubelet itself)`, `${SPEC}.${key}[${i}]`));
        }
      }
    }
    return out;
  }),
  advise: (graph) => withMachines(graph).flatMap(({ config, machine }) => {
    const flags = flagsOf(config);
    if (!machine || machine.manifest.metadata?.annotations?.[KUBELET_SERVICE_ANNOTATION] !== undefined || flags.length === 0) return [];
    return [violation(machine, `the pool hands the kubelet ${flags.map((f) => f.what).join(', ')} through kubeadm, which reach it only if the image runs the kubelet under nssm: images built by image-builder v0.1.53 or later run it as a native service and drop them (image-builder#2011)`,
      `say which the image runs: annotate metadata.annotations.${KUBELET_SERVICE_ANNOTATION}: nssm or windows-service`, `metadata.annotations.${KUBELET_SERVICE_ANNOTATION}`)];
  }),
});
