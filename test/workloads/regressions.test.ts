import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { HybridConfigError, LABEL_WINDOWS_BUILD, validateManifests, WindowsVersion } from '../../src';
import { HyperVRuntimeClass, WindowsPod, WindowsWorkload } from '../../src/workloads';
import { synthObjects } from '../support/synth';

const IMAGE = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';

function error(build: () => unknown): Error {
  try {
    build();
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error');
}

describe('found again in issue 18.14: each answered with a path and a fix', () => {
  test('WindowsPod applied twice', () => {
    const d = new kplus.Deployment(new Chart(new App(), 'c'), 'd', { containers: [{ image: IMAGE }] });
    new WindowsPod(d);
    const e = error(() => new WindowsPod(d));
    expect(e).toBeInstanceOf(HybridConfigError);
    expect(e.message).toMatch(/^\[c\/d\] is already Windows-safe .*Fix: attach WindowsPod once/);
  });

  test('WindowsPod before any container', () => {
    const app = new App();
    new WindowsPod(new kplus.Deployment(new Chart(app, 'c'), 'd'));
    // The chart's policy renders the objects first: cdk8s-plus's refusal arrives with the object's path.
    const e = error(() => synthObjects(app));
    expect(e).toBeInstanceOf(HybridConfigError);
    expect(e.message).toMatch(/^\[c\/d\/Resource\] Deployment c-d-[0-9a-f]+ cannot be written \(Error: PodSpec must have at least 1 container\)\. Fix: /);
  });

  test('a workload outside a chart', () => {
    const e = error(() => new WindowsWorkload(new App(), 'w', { image: IMAGE }));
    expect(e).toBeInstanceOf(HybridConfigError);
    expect(e.message).toMatch(/^\[w\] is not inside a cdk8s Chart\. Fix: create it in a Chart/);
  });

  test('a JSON patch whose path names no field', () => {
    const app = new App();
    const w = new WindowsWorkload(new Chart(app, 'c'), 'w', { image: IMAGE });
    ApiObject.of(w.workload).addJsonPatch(JsonPatch.replace('/spec/nope/deeper', 1));
    const e = error(() => synthObjects(app));
    expect(e).toBeInstanceOf(HybridConfigError);
    expect(e.message).toMatch(/^\[c\/w\/Default\/Resource\] Deployment c-w-[0-9a-f]+: JSON patch \[\d+\] \(replace \/spec\/nope\/deeper\) names a path that does not exist in the object\. Fix: correct the path/);
  });

  test('an unknown Windows version is refused by name, not a TypeError', () => {
    const e = error(() => new WindowsWorkload(new Chart(new App(), 'c'), 'w', { image: IMAGE, version: '2016' as WindowsVersion }));
    expect(e).toBeInstanceOf(HybridConfigError);
    expect(e.message).toMatch(/version: "2016" is not a WindowsVersion/);
  });

  test('a windows-build selector patched to another release than the image\'s', () => {
    const app = new App();
    const w = new WindowsWorkload(new Chart(app, 'c'), 'w', { image: IMAGE });
    ApiObject.of(w.workload).addJsonPatch(JsonPatch.replace(`/spec/template/spec/nodeSelector/${LABEL_WINDOWS_BUILD.replace('/', '~1')}`, '10.0.17763'));
    expect(error(() => synthObjects(app)).message).toMatch(/container main: image .*ltsc2022, which a Windows Server 2019 host \(build 10\.0\.17763\) cannot run/);
  });

  test('two RuntimeClasses of one name', () => {
    const app = new App();
    new HyperVRuntimeClass(new Chart(app, 'a'), 'h');
    const e = error(() => new HyperVRuntimeClass(new Chart(app, 'b'), 'h'));
    expect(e.message).toMatch(/^\[b\/h\] RuntimeClass windows-hyperv is already written by a\/h\. Fix: give one of them another `name`/);
  });

  test('a Service with two ports of one port and protocol (kubernetes ValidateService: Duplicate value)', () => {
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80, protocol: 'TCP' }, { name: 'c', port: 80, protocol: 'UDP' }] } };
    expect(validateManifests([service]).map((v) => v.message)).toEqual([expect.stringMatching(/spec\.ports\[1\] repeats port 80\/TCP of spec\.ports\[0\]/)]);
  });
});
