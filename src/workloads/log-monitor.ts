/** Where Microsoft's LogMonitor is conventionally copied into Windows images. */
export const LOG_MONITOR_EXE = 'C:\\LogMonitor\\LogMonitor.exe';

export interface LogMonitorOptions {
  /**
   * Path of LogMonitor.exe inside the image.
   * @default LOG_MONITOR_EXE
   */
  readonly executable?: string;

  /**
   * Path of the LogMonitor configuration (which event logs, ETW providers and files to forward).
   * @default - LogMonitor's own default, `C:\LogMonitor\LogMonitorConfig.json`
   */
  readonly config?: string;
}

/**
 * Wraps a container entrypoint with LogMonitor so that Windows event logs, ETW and log files reach
 * STDOUT and `kubectl logs`: `withLogMonitor(['C:\\ServiceMonitor.exe', 'w3svc'])` gives
 * `['C:\\LogMonitor\\LogMonitor.exe', 'C:\\ServiceMonitor.exe', 'w3svc']`. Use it as a container's
 * `command`; the image must contain LogMonitor (see docs/workloads.md).
 */
export function withLogMonitor(command: string[], options: LogMonitorOptions = {}): string[] {
  if (command.length === 0) throw new Error('withLogMonitor needs the command LogMonitor should start, e.g. [\'C:\\\\ServiceMonitor.exe\', \'w3svc\']');
  const config = options.config !== undefined ? ['/Config', options.config] : [];
  return [options.executable ?? LOG_MONITOR_EXE, ...config, ...command];
}
