import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'js-yaml';
import { K0smotronInfrastructure, infrastructureProblem } from '../platform/infrastructures';
import { KUBECTL_SCHEMA } from './kubectl-yaml';

/**
 * The declarations of k0smotron infrastructures that `--infrastructures` and the config file's
 * `infrastructures` name: files (a YAML or JSON list of declarations, or one; a CommonJS module
 * whose exports are declarations, `module.exports = [...]` or one per named export) and
 * declarations written out. Throws an `Error` naming the file or entry and the field at fault.
 * @internal
 */
export function readInfrastructures(entries: ReadonlyArray<string | object>): K0smotronInfrastructure[] {
  return entries.flatMap((entry, i) => {
    if (typeof entry !== 'string') return [checked(entry, `infrastructures[${i}]`)];
    const file = resolve(entry);
    const isData = /\.(ya?ml|json)$/i.test(file);
    let value: unknown;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      value = isData ? load(readFileSync(file, 'utf8'), { schema: KUBECTL_SCHEMA }) : require(file);
    } catch (e) {
      throw new Error(`infrastructures ${entry}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { cause: e });
    }
    // A module of named exports (an ES module's default export among them), unless it exports one declaration.
    const exports = !isData && value !== null && typeof value === 'object' && !Array.isArray(value) && !('clusterKind' in value);
    const declarations = Array.isArray(value) ? value.map((d, j) => [`[${j}]`, d] as const)
      : exports ? Object.entries(value as object).filter(([k]) => k !== '__esModule').map(([k, d]) => [` export ${k}`, d] as const)
      : [['', value] as const];
    return declarations.map(([at, d]) => checked(d, `infrastructures ${entry}${at}`));
  });
}

function checked(value: unknown, where: string): K0smotronInfrastructure {
  const problem = infrastructureProblem(value);
  if (problem) throw new Error(`${where} ${problem}. Fix: declare name, platform, clusterKind, machineTemplateKind, windowsProvisioner, windowsProvisionerReason, kubeletPortOpenedBy and placement (docs/validate.md, "Infrastructures")`);
  return value as K0smotronInfrastructure;
}
