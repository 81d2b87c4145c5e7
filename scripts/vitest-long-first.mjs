// A vitest sequencer that starts a suite's longest files first. Vitest orders files by the
// durations it cached on an earlier run, and by size without one; a fresh clone (CI) has no cache,
// so a short file holding a long test (the API's schemathesis run) started last and ran alone on
// one fork while the other sat idle. Naming those files here keeps both forks busy to the end.
// Vitest's BaseSequencer comes from the calling config: this folder has no vitest of its own.

/**
 * @param {typeof import('vitest/node').BaseSequencer} BaseSequencer vitest's, from the config
 * @param {string[]} longFiles test files, relative to the package root, started first in this order
 */
export function longFirst(BaseSequencer, longFiles) {
  return class LongFirstSequencer extends BaseSequencer {
    /** @param {import('vitest/node').TestSpecification[]} files */
    async sort(files) {
      const sorted = await super.sort(files);
      const rank = (/** @type {import('vitest/node').TestSpecification} */ file) => {
        const index = longFiles.findIndex((long) => file.moduleId.endsWith(`/${long}`));
        return index < 0 ? longFiles.length : index;
      };
      // Array.prototype.sort is stable: the rest keep vitest's own order.
      return sorted.sort((a, b) => rank(a) - rank(b));
    }
  };
}
