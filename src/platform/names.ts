/**
 * Longest MachineDeployment name: CAPI appends a MachineSet hash and a Machine suffix, and the
 * Machine name must still fit the 63 characters of a label value (k0smotron labels each node
 * with its Machine's name).
 */
export const MAX_MACHINE_DEPLOYMENT_NAME = 45;
