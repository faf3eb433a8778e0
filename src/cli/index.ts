#!/usr/bin/env node
import { run } from './run.js';

// Exits at once on failure, as before any handle left open could keep the process alive.
void run(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exit(code);
});
