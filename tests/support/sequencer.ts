import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Fault tests start first: each waits minutes on a server it broke, while the other worker runs the rest. */
export class FaultsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const isFault = (f: TestSpecification) => f.project.name === 'faults'
    return [...sorted.filter(isFault), ...sorted.filter((f) => !isFault(f))]
  }
}
