import { InvalidArgumentError } from 'commander';

/** Where a run of `mds` writes: the process's stdout and stderr, or buffers in tests (run.ts). */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The exit code of a run, set by commands with documented codes (cli/ingest.ts). */
export interface CliExit {
  code: number;
}

/** A command-line integer of at least `min` (commander's argParser). */
export const intAtLeast =
  (min: number) =>
  (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(min === 0 ? 'expected a non-negative integer' : `expected an integer >= ${min}`);
    return n;
  };
