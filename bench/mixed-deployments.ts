/**
 * `node lib/bench/mixed-deployments.js <count> <file> [every]`: writes `count` Deployments as one
 * YAML stream, `helm template` style (a `---` and a `# Source:` comment before each), half of
 * them Windows (os, nodeSelector, the toleration of the library's Windows taint), half Linux, in
 * block and flow style. With `every`, each `every`-th Windows one lacks its toleration: a finding
 * under `--platform k0smotron-aws`.
 */
import { writeFileSync } from 'node:fs';

export function mixedDeployments(count: number, every = 0): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const windows = i % 2 === 0;
    const tolerates = !(windows && every > 0 && i % (2 * every) === 0);
    out.push(`---
# Source: shop/templates/app-${i}.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  namespace: team-${i % 20}
  labels: {app: app-${i}, tier: ${windows ? 'legacy' : 'web'}}
spec:
  replicas: ${1 + (i % 3)}
  selector:
    matchLabels: {app: app-${i}}
  template:
    metadata:
      labels: {app: app-${i}}
    spec:
${windows ? `      os: {name: windows}
      nodeSelector:
        kubernetes.io/os: windows
${tolerates ? `      tolerations:
        - {key: os, operator: Equal, value: windows, effect: NoSchedule}
` : ''}` : `      nodeSelector: {kubernetes.io/os: linux}
`}      containers:
        - name: main
          image: ${windows ? 'mcr.microsoft.com/dotnet/framework/aspnet:4.8-windowsservercore-ltsc2022' : 'nginx:1.27'}
          ports:
            - containerPort: 8080
          resources:
            requests: {cpu: 100m, memory: 128Mi}
`);
  }
  return out.join('');
}

if (require.main === module) {
  const [count, file, every] = process.argv.slice(2);
  writeFileSync(file, mixedDeployments(Number(count), Number(every ?? 0)));
}
