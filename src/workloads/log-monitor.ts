import { fail } from '../core/errors';
import { listOf } from '../core/values';

/** Where Microsoft's LogMonitor is conventionally copied into Windows images. */
export const LOG_MONITOR_EXE = 'C:\\LogMonitor\\LogMonitor.exe';

/**
 * The configuration LogMonitor reads without `/Config`: a fixed path, not one beside the
 * executable (microsoft/windows-container-tools v2.2.1, LogMonitor/src/LogMonitor/Parser/LoggerSettings.h
 * and LogMonitor/README.md: `DEFAULT_CONFIG_FILENAME L"C:\\LogMonitor\\LogMonitorConfig.json"`).
 */
export const LOG_MONITOR_DEFAULT_CONFIG = 'C:\\LogMonitor\\LogMonitorConfig.json';

/** Options of `withLogMonitor`. */
export interface LogMonitorOptions {
  /**
   * Path of LogMonitor.exe inside the image.
   * @default LOG_MONITOR_EXE
   */
  readonly executable?: string;

  /**
   * File name of the LogMonitor configuration (which event logs, ETW providers and files to
   * forward), in the directory of `LogMonitor.exe`. LogMonitor 2.2 and later take only a bare file
   * name there: a value with `\`, `/`, `:` or `..` makes it log "Invalid configuration file name."
   * and exit 0 without starting the command (microsoft/windows-container-tools v2.2.1,
   * LogMonitor/src/LogMonitor/Main.cpp).
   * @default - LogMonitor's own default, the fixed path `C:\LogMonitor\LogMonitorConfig.json`
   *   (`LOG_MONITOR_DEFAULT_CONFIG`), wherever `executable` is: with LogMonitor elsewhere, copy the
   *   config there too or pass its name here
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
  listOf({ path: 'withLogMonitor', prop: 'command' }, command);
  if (command.length === 0) {
    fail('withLogMonitor', 'no command for LogMonitor to start', 'pass the entrypoint, e.g. [\'C:\\\\ServiceMonitor.exe\', \'w3svc\']');
  }
  const { config } = options;
  if (config !== undefined && (config === '' || /[\\/:]|\.\./.test(config))) {
    fail('withLogMonitor', `config ${JSON.stringify(config)} is a path; LogMonitor 2.2+ takes only a file name in LogMonitor.exe's directory, and exits without starting the command otherwise`,
      'copy the file next to LogMonitor.exe and pass its name, e.g. \'LogMonitorConfig.json\'');
  }
  return [options.executable ?? LOG_MONITOR_EXE, ...(config !== undefined ? ['/Config', config] : []), ...command];
}
