/**
 * The floor under the default example: cdk8s and this package's root loaded, nothing built or
 * written. `npm run bench` runs it interleaved with plain cdk8s writing the example's objects
 * (bench/plain-write.ts), so the ratio shows how much of the example's cost over plain cdk8s
 * loading the library alone takes, before any construct or rule runs.
 */
import 'cdk8s';
import '../src';
