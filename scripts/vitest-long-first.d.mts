/** vitest-long-first.mjs: vitest's own sequencer, starting `longFiles` first. */
export declare function longFirst<Sequencer extends new (...args: never[]) => object>(
  BaseSequencer: Sequencer,
  longFiles: string[],
): Sequencer;
