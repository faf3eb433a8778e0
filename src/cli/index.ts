#!/usr/bin/env node
import { run } from './run.js';

// A reader that stops early (`mds versions | head`) closes the pipe: the output is done, not an
// error; the command stops quietly, as Unix tools do.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// Exits at once on failure, as before any handle left open could keep the process alive.
void run(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exit(code);
});
