/**
 * Longest MachineDeployment name: CAPI's webhook refuses one that is not a label value
 * (cluster-api v1.14.0 core/webhooks/admission/machinedeployment.go, `IsValidLabelValue(newMD.Name)`),
 * as its MachineSets and Machines carry it in `cluster.x-k8s.io/deployment-name`. The names
 * derived from it never exceed 63 either: a MachineSet's is the name and "-" cut to 58 characters
 * plus 5 random ones (core/reconcilers/machinedeployment/machinedeployment_sync.go,
 * computeNewMachineSetName), a Machine's `{{ .machineSet.name }}-{{ .random }}` is cut to 58 plus 5
 * random ones when longer (core/reconcilers/machineset/machineset_controller.go,
 * computeDesiredMachine; internal/topology/names/names.go). So k0smotron's node label
 * `k0smotron.io/machine-name` and `--hostname-override` (the Machine's name: k0smotron v2.1.0
 * internal/controller/bootstrap/common.go, mergeExtraArgs) fit whatever the MachineDeployment's length.
 */
export const MAX_MACHINE_DEPLOYMENT_NAME = 63;
