// Plays the engine's part of one golden transcript (packages/contracts/engine-transcripts) on
// fd 3, so the worker's real bridge can be replayed against it:
//
//   node transcript-engine.mjs <transcript.ndjson> <fixtures dir> <out dir>
//
// Engine lines are written as the transcript gives them, placeholders made concrete. Each worker
// line is awaited and must equal, byte for byte, the transcript's message (with $FIXTURES and
// $OUT substituted) as compact JSON. A mismatch or an extra line is reported on stderr and ends
// the process with code 3. At the end of the transcript it waits for the pipe to close, then
// exits 0, as the engine does.
import { readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

const [transcriptFile, fixtures, out] = process.argv.slice(2);
const MISMATCH = 3;
const entries = readFileSync(transcriptFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line));

/** Worker lines: the transcript's paths made real. */
function substitute(value) {
  if (typeof value === 'string')
    return value.replaceAll('$FIXTURES', fixtures).replaceAll('$OUT', out);
  if (Array.isArray(value)) return value.map(substitute);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
  }
  return value;
}

/** The output directory of the job the worker started last: its artifacts lie there. */
let outputDir = out;

/** Engine lines: each placeholder becomes a value it matches (an artifact lies in its job's output directory). */
function concrete(value, key, message) {
  if (value === '<string>') {
    return key === 'path' ? path.join(outputDir, `replayed-${message.kind}`) : 'replayed';
  }
  if (value === '<number>') return 1;
  if (value === '<any>') return null;
  if (Array.isArray(value)) return value.map((v) => concrete(v, undefined, message));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, concrete(v, k, message)]));
  }
  return value;
}

const channel = new Socket({ fd: 3, readable: true, writable: true });
const received = createInterface({ input: channel, crlfDelay: Infinity })[Symbol.asyncIterator]();

function fail(reason) {
  process.stderr.write(`transcript ${path.basename(transcriptFile)}: ${reason}\n`);
  process.exit(MISMATCH);
}

for (const [index, { from, message }] of entries.entries()) {
  if (from === 'engine') {
    channel.write(`${JSON.stringify(concrete(message, undefined, message))}\n`);
    continue;
  }
  const expected = JSON.stringify(substitute(message));
  if (message.type === 'start') outputDir = substitute(message.params.output_dir);
  const next = await received.next();
  if (next.done) fail(`line ${index + 1}: the worker closed the pipe, expected ${expected}`);
  if (next.value !== expected) fail(`line ${index + 1}: expected ${expected}, got ${next.value}`);
}
const extra = await received.next();
if (!extra.done) fail(`after the last line the worker sent ${extra.value}`);
process.exit(0);
