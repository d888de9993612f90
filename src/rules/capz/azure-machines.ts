import {
  CAPZ_AZURE_JSON_SUFFIX, CAPZ_DEFAULT_WINDOWS_IMAGE, CAPZ_IMAGE_ANNOTATIONS, CAPZ_KINDS, CAPZ_OS_TYPE, CAPZ_WINDOWS_RUNTIMES, capzAzureJsonSecret, capzImageNames, capzImageOs, capzWindowsComputerName,
  WINDOWS_COMPUTER_NAME_MAX, WINDOWS_SERVER_VERSION_ANNOTATION, windowsComputerNameProblem,
} from '../../platform/capz';
import { describe, isCapi, Json, list, ManifestGraph, ManifestSource, violation } from '../engine/graph';
import { Finding, rule } from '../engine/rule';
import { controlPlaneMachineRef, CONTROLPLANE } from '../cluster/pools';
import { azurePools, bootstrapSpec, machineSpec, nodeRegistrations, windowsMachine } from './azure-pools';

/**
 * The rules of CAPZ's machines: the OS type against the image and the bootstrap, the names Windows
 * VMs get, and the azure.json Secret a bootstrap reads.
 */

const OS_TYPE = 'spec.template.spec.osDisk.osType';

/** What in a KubeadmConfigTemplate says it bootstraps Windows: the named-pipe CRI socket or drive-letter file paths. */
function bootstrapsWindows(config: ManifestSource | undefined): string | undefined {
  const socket = nodeRegistrations(config).map((r) => r.registration.criSocket).find((s) => typeof s === 'string' && /^npipe:/i.test(s));
  if (socket) return `criSocket ${socket}`;
  const path = list(bootstrapSpec(config).files).map((f) => f?.path).find((p) => typeof p === 'string' && /^[A-Za-z]:[\\/]/.test(p));
  return path ? `file ${path}` : undefined;
}

/** An AzureMachineTemplate's OS type against its image and what boots on it. */
function osTypeProblems(machine: ManifestSource, config: ManifestSource | undefined, controlPlane: boolean): Finding[] {
  const out: Finding[] = [];
  const spec = machineSpec(machine);
  const osType = spec.osDisk?.osType;
  const said = osType === undefined ? `absent (CAPZ's default: ${CAPZ_OS_TYPE.default})` : JSON.stringify(osType);
  const windows = windowsMachine(machine);
  const names = capzImageNames(spec.image).join(' ');
  const imageOs = capzImageOs(spec.image);
  if (controlPlane && windows) {
    out.push(violation(machine, `osDisk.osType is "Windows" on the control plane's machines: kubeadm control planes run on Linux only`, `set ${OS_TYPE}: Linux and a Linux image`, OS_TYPE));
    return out;
  }
  const bootstrap = bootstrapsWindows(config);
  if (!windows && bootstrap) {
    out.push(violation(machine, `osDisk.osType is ${said} while ${describe(config!)} bootstraps Windows (${bootstrap}): CAPZ asks Azure for a Linux VM (a Linux default image, Linux provisioning), and the machine never joins`,
      `set ${OS_TYPE}: Windows`, OS_TYPE));
  } else if (!windows && imageOs === 'windows') {
    out.push(violation(machine, `osDisk.osType is ${said} and the image (${names}) is a Windows image: CAPZ creates the VM as Linux (Linux provisioning, SSH key, bootstrap extension), so it never bootstraps`,
      `set ${OS_TYPE}: Windows`, OS_TYPE));
  } else if (windows && imageOs === 'linux') {
    out.push(violation(machine, `osDisk.osType is "Windows" and the image (${names}) is a Linux image`, `use a Windows image (e.g. omit spec.template.spec.image for CAPZ's default ${CAPZ_DEFAULT_WINDOWS_IMAGE.name}), or set osDisk.osType: Linux`, 'spec.template.spec.image'));
  }
  if (windows && spec.image === undefined) {
    // CAPZ reads these from the AzureMachine, which takes its template's spec.template.metadata.
    const annotations = machine.manifest.spec?.template?.metadata?.annotations ?? {};
    const field = 'spec.template.metadata.annotations';
    const runtime = annotations[CAPZ_IMAGE_ANNOTATIONS.runtime];
    if (runtime !== undefined && !CAPZ_WINDOWS_RUNTIMES.includes(runtime)) {
      out.push(violation(machine, `annotation ${CAPZ_IMAGE_ANNOTATIONS.runtime}: ${JSON.stringify(runtime)}: CAPZ's default Windows image lookup takes only containerd, and fails the machine ("unsupported runtime")`, `set ${field}.${CAPZ_IMAGE_ANNOTATIONS.runtime}: containerd, or remove it`, field));
    }
    const version = annotations[CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion];
    if (version !== undefined && !WINDOWS_SERVER_VERSION_ANNOTATION.test(String(version))) {
      out.push(violation(machine, `annotation ${CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion}: ${JSON.stringify(version)} is not of the form windows-YYYY, and CAPZ's default Windows image lookup fails the machine ("unsupported osAndVersion")`, `set ${field}.${CAPZ_IMAGE_ANNOTATIONS.windowsServerVersion}: windows-2022, or remove it (CAPZ's default is Windows Server 2022)`, field));
    }
  }
  return out;
}

/** Each KubeadmControlPlane with the AzureMachineTemplate its machines boot from, when written. */
function controlPlaneMachines(graph: ManifestGraph): Array<{ kcp: ManifestSource; machine: ManifestSource }> {
  return graph.ofKind('KubeadmControlPlane').filter((k) => isCapi(k, CONTROLPLANE)).flatMap((kcp) => {
    const ref = controlPlaneMachineRef(kcp)?.ref;
    const machine = ref?.kind === CAPZ_KINDS.machineTemplate ? graph.resolve(kcp, ref) : undefined;
    return machine ? [{ kcp, machine }] : [];
  });
}

/** A CAPZ machine template's OS type agrees with its image, its bootstrap and its role. */
export const capzOsType = rule<ManifestGraph>({
  name: 'capz-os-type',
  scope: 'object',
  description: 'A CAPZ machine template\'s osDisk.osType agrees with its image and its bootstrap (CAPZ defaults it to Linux), the control plane stays Linux, and CAPZ\'s default Windows image annotations are ones it takes',
  source: 'cluster-api-provider-azure v1.26.0 api/v1beta1/types.go (OSDisk.OSType); azure/scope/machine.go (GetVMImage); azure/services/virtualmachineimages/images.go (GetDefaultWindowsImage)',
  check: (graph) => [
    ...azurePools(graph).flatMap((p) => (p.machine ? osTypeProblems(p.machine, p.config, false) : [])),
    ...controlPlaneMachines(graph).flatMap(({ machine }) => osTypeProblems(machine, undefined, true)),
  ],
});

/** The names of a MachineDeployment's machines, with `{{ .random }}` as five x's (cluster-api v1.14 MachineNamingSpec). */
function machineNameOf(md: ManifestSource): { name: string; randomLast: boolean } {
  const name = String(md.manifest.metadata?.name ?? '');
  // CAPI names a MachineSet `<MachineDeployment>-<5 random>` and, without a template, its Machines
  // `<MachineSet>-<5 random>` (cluster-api v1.14 core/reconcilers/machinedeployment/machinedeployment_sync.go,
  // computeNewMachineSetName; core/reconcilers/machineset/machineset_controller.go, computeDesiredMachine);
  // CAPZ's AzureMachine takes the Machine's name.
  const template = md.manifest.spec?.machineNaming?.template;
  if (typeof template !== 'string') return { name: `${name}-xxxxx-xxxxx`, randomLast: true };
  const rendered = template.replace(/\{\{\s*\.machineSet\.name\s*\}\}/g, `${name}-xxxxx`).replace(/\{\{\s*\.cluster\.name\s*\}\}/g, String(md.manifest.spec?.clusterName ?? ''));
  return { name: rendered.replace(/\{\{\s*\.random\s*\}\}/g, 'xxxxx'), randomLast: /\{\{\s*\.random\s*\}\}$/.test(rendered) };
}

/** Windows computer names as CAPZ derives them from the Machines' names: unique, and of characters Windows takes. */
export const capzWindowsNames = rule<ManifestGraph>({
  name: 'capz-windows-names',
  scope: 'object',
  description: 'The Windows computer names CAPZ derives from a pool\'s machine names (15 characters: the first 9, "-", the last 5) are unique and of characters Windows takes',
  source: 'cluster-api-provider-azure v1.26.0 azure/scope/machine.go (MachineScope.Name); azure/services/virtualmachines/spec.go (ComputerName)',
  check: (graph) => azurePools(graph).filter((p) => p.machine && windowsMachine(p.machine)).flatMap(({ pool }) => {
    const { name, randomLast } = machineNameOf(pool.md);
    const computer = capzWindowsComputerName(name);
    const out: Finding[] = [];
    const problem = windowsComputerNameProblem(computer);
    const template = pool.md.manifest.spec?.machineNaming?.template !== undefined;
    const field = template ? 'spec.machineNaming.template' : 'metadata.name';
    if (problem) {
      out.push(violation(pool.md, `the Windows computer name CAPZ derives from this pool's machine names (e.g. ${name} → ${computer}) ${problem}, and Azure refuses the VM`, template ? 'use letters, digits and "-" in spec.machineNaming.template' : 'name the MachineDeployment with letters, digits and "-" only', field));
    }
    if (name.length > WINDOWS_COMPUTER_NAME_MAX && !randomLast) {
      out.push(violation(pool.md, `machine names like ${name} are longer than ${WINDOWS_COMPUTER_NAME_MAX} characters and do not end in {{ .random }}, so CAPZ shortens every one to ${computer} (the first 9 and the last 5 characters): the VMs collide`,
        'end spec.machineNaming.template with {{ .random }}, or remove it', 'spec.machineNaming.template'));
    }
    return out;
  }),
});

/** The azure.json files a bootstrap reads, against the Secret CAPZ writes for the machine template. */
function azureJsonProblems(config: ManifestSource, files: Json, filesField: string, machine: ManifestSource): Finding[] {
  const expected = capzAzureJsonSecret(String(machine.manifest.metadata?.name));
  return list(files).flatMap((f, i) => {
    const secret = f?.contentFrom?.secret?.name;
    return typeof secret === 'string' && secret.endsWith(CAPZ_AZURE_JSON_SUFFIX) && secret !== expected
      ? [violation(config, `${f.path ?? 'a file'} is read from Secret ${secret}, but CAPZ writes the cloud provider's config of ${describe(machine)}'s machines to ${expected}: the bootstrap waits for a Secret nobody writes`,
        `read it from ${expected}`, `${filesField}[${i}].contentFrom.secret.name`)]
      : [];
  });
}

/** A bootstrap's azure.json Secret is the one CAPZ writes for the machine template it boots on. */
export const capzAzureJson = rule<ManifestGraph>({
  name: 'capz-azure-json',
  scope: 'object',
  description: 'A bootstrap file read from an azure.json Secret names the one CAPZ writes for its machine template (<AzureMachineTemplate>-azure-json)',
  source: 'cluster-api-provider-azure v1.26.0 controllers/azurejson_machinetemplate_controller.go (Reconcile); controllers/helpers.go (GetCloudProviderSecret)',
  check: (graph) => [
    ...azurePools(graph).flatMap((p) => (p.config && p.machine ? azureJsonProblems(p.config, bootstrapSpec(p.config).files, 'spec.template.spec.files', p.machine) : [])),
    ...controlPlaneMachines(graph).flatMap(({ kcp, machine }) => azureJsonProblems(kcp, kcp.manifest.spec?.kubeadmConfigSpec?.files, 'spec.kubeadmConfigSpec.files', machine)),
  ],
});
