/** Where a run of `mds` writes: the process's stdout and stderr, or buffers in tests (run.ts). */
export interface CliIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The exit code of a run, set by commands with documented codes (cli/ingest.ts). */
export interface CliExit { code: number }
