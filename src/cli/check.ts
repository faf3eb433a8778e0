/**
 * `mds check`: verifies a store as it is, without migrating it. The schema must be current;
 * then the bar packs are compared with their bars, and every derivation (derived/registry.ts)
 * with the version the code has and with what the code makes of the packs now (checkBarPacks).
 * Prints a line per part and one per problem; exits 0 when all is right, 1 on a problem, 3 when
 * the store cannot be opened.
 */
import type { Command } from 'commander';
import { checkBarPacks } from '../derived/bar-packs.js';
import type { CliExit, CliIO } from './io.js';
import { withStoreAsIs } from './store.js';

/** Problems listed at most (the count covers them all). */
const MAX_PROBLEMS = 50;

const n = (x: number) => x.toLocaleString('en-US');

export function registerCheck(program: Command, db: () => string | undefined, io: CliIO, exit: CliExit): void {
  const out = (line: string) => {
    io.stdout.write(line + '\n');
  };
  program
    .command('check')
    .description('verify a store: bar packs against their bars, derived data against the code (exit 1 on a problem)')
    .action(() =>
      withStoreAsIs(db(), async (s, pending) => {
        if (pending.length) {
          out(`schema: ${pending.length} of its migrations not applied (${pending.join(', ')}); run mds migrate`);
          exit.code = 1;
          return;
        }
        const r = await checkBarPacks(s, MAX_PROBLEMS);
        out(`bar packs: ${n(r.packs)} packs, ${n(r.rows)} bars compared`);
        for (const [name, d] of Object.entries(r.derived)) {
          const version =
            d.stored === d.version ? `version ${d.version}` : `stored version ${d.stored ?? 'none'}, code version ${d.version}`;
          out(`${name}: ${version}, ${n(d.compared)} ${d.unit} as the code makes them`);
        }
        for (const p of r.problems) out(`problem: ${p}`);
        const more = r.found > r.problems.length ? ` (the first ${r.problems.length} listed)` : '';
        out(r.found === 0 ? 'no problems' : `${n(r.found)} problem${r.found === 1 ? '' : 's'}${more}`);
        if (r.found > 0) exit.code = 1;
      }),
    );
}
