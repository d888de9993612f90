import { SUBJECTS } from '../support/props-spec';

/**
 * Issue 35, "no construct reads a prop except through its spec": each construct that declares its
 * props is built with a props object that records every property read on it. The spec's parse
 * reads each declared prop exactly once; a construct that read a prop again (`props.x` after
 * parsing), read one its spec does not declare, or handed the object on to be read elsewhere
 * (a spread, another construct) would show up as a second read or an undeclared key.
 */
describe.each(SUBJECTS.filter((s) => !s.partOfProps).map((s) => [s.name, s] as const))('%s', (_, subject) => {
  test('reads each declared prop once, through its spec, and nothing else', () => {
    const reads: string[] = [];
    const props = new Proxy({ ...subject.base }, {
      get: (target, key, receiver) => {
        reads.push(String(key));
        return Reflect.get(target, key, receiver);
      },
    });
    subject.build(subject.fixture(), 'r', props);
    const declared = [...Object.keys(subject.spec.entries), ...subject.alsoReads ?? []].sort();
    expect([...reads].sort()).toEqual(declared);
  });
});

test('the recorder sees a read after the parse, as a construct that read a prop again would make', () => {
  const reads: string[] = [];
  const props = new Proxy({ image: 'x' }, { get: (t, k, r) => (reads.push(String(k)), Reflect.get(t, k, r)) });
  const subject = SUBJECTS.find((s) => s.name === 'WindowsExporter')!;
  subject.spec.parse('e', props);
  void (props as { image?: string }).image;
  expect(reads.filter((k) => k === 'image')).toHaveLength(2);
});
