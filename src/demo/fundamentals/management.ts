/**
 * Board, supervisory board and senior management history. Seats are filled in three-year
 * terms (the Company Law's maximum), starting from the listing date or ten years before the
 * data end, whichever is later; at each re-election a holder stays on or is replaced, and now
 * and then someone leaves mid-term. end_date is null while the person is still in office.
 */
import type { Rng } from '../random.js';
import type { ManagementTable } from '../../store/schema-fundamentals.js';
import { education, personName, type Gender } from './people.js';
import { addDays, dayIn, yearOf } from './util.js';

export type ManagementRow = Omit<ManagementTable, 'inst'>;

/** [title, seats] in display order. */
export const TITLES: readonly [ManagementTable['title'], number][] = [
  ['chairman', 1],
  ['vice_chairman', 1],
  ['general_manager', 1],
  ['deputy_general_manager', 2],
  ['chief_financial_officer', 1],
  ['board_secretary', 1],
  ['director', 3],
  ['independent_director', 3],
  ['supervisor_chairman', 1],
  ['supervisor', 2],
];

interface Person {
  name: string;
  gender: Gender;
  birth: number;
  education: ManagementTable['education'];
}

function person(r: Rng, year: number, senior: boolean): Person {
  const gender: Gender = r.chance(senior ? 0.88 : 0.7) ? 'male' : 'female';
  return { name: personName(r, gender), gender, birth: year - r.int(senior ? 42 : 32, senior ? 62 : 58), education: education(r) };
}

export function managementRows(r: Rng, listDate: number, end: number): ManagementRow[] {
  const y0 = yearOf(end) - 10;
  const start = Math.max(listDate, dayIn(r, y0 * 10000 + 101, y0 * 10000 + 1231));
  const terms: number[] = [];
  for (let d = start; d <= end; d = addDays(d, 365 * 3 + r.int(-20, 20))) terms.push(d);
  const rows: ManagementRow[] = [];
  const used = new Set<string>();
  const fresh = (year: number, senior: boolean) => {
    for (;;) {
      const p = person(r, year, senior);
      if (!used.has(p.name)) {
        used.add(p.name);
        return p;
      }
    }
  };
  TITLES.forEach(([title, seats]) => {
    const senior = title === 'chairman' || title === 'general_manager' || title === 'vice_chairman';
    for (let seat = 0; seat < seats; seat++) {
      let holder = fresh(yearOf(start), senior),
        since = start;
      const close = (until: number | null) =>
        rows.push({
          seq: 0,
          name: holder.name,
          title,
          gender: holder.gender,
          birth_year: holder.birth,
          education: holder.education,
          start_date: since,
          end_date: until,
        });
      for (let k = 1; k <= terms.length; k++) {
        const termEnd = k < terms.length ? terms[k] : null;
        const midTerm = r.chance(0.1) && termEnd !== null;
        const leave = midTerm ? addDays(terms[k - 1], r.int(90, 900)) : termEnd;
        const stays = !midTerm && r.chance(title === 'independent_director' ? 0.45 : 0.7);
        if (leave === null || leave > end) break;
        if (stays) continue;
        close(leave);
        holder = fresh(yearOf(leave), senior);
        since = leave;
      }
      close(null);
    }
  });
  rows.sort((a, b) => a.start_date - b.start_date || TITLE_ORDER[a.title] - TITLE_ORDER[b.title] || (a.name < b.name ? -1 : 1));
  rows.forEach((row, i) => {
    row.seq = i + 1;
  });
  return rows;
}

const TITLE_ORDER: Record<string, number> = Object.fromEntries(TITLES.map(([t], i) => [t, i]));

/** The chairman in office at the end: the company's legal representative. */
export function chairman(rows: ManagementRow[]): string {
  return rows.find((x) => x.title === 'chairman' && x.end_date === null)?.name ?? rows[0]?.name ?? '';
}
