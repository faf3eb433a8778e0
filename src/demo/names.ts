/**
 * Fictional company names: a two-character brand drawn from characters common in Chinese
 * company names, plus an industry word (华兴 + 科技 -> 华兴科技, "Huaxing Technology").
 * Brands are unique within one demo market.
 */
import type { Rng } from './random.js';
import type { Industry } from './catalog.js';

const CHARS: readonly [string, string][] = [
  ['华', 'hua'],
  ['兴', 'xing'],
  ['中', 'zhong'],
  ['东', 'dong'],
  ['方', 'fang'],
  ['海', 'hai'],
  ['天', 'tian'],
  ['金', 'jin'],
  ['宏', 'hong'],
  ['恒', 'heng'],
  ['瑞', 'rui'],
  ['泰', 'tai'],
  ['鑫', 'xin'],
  ['隆', 'long'],
  ['盛', 'sheng'],
  ['新', 'xin'],
  ['润', 'run'],
  ['达', 'da'],
  ['通', 'tong'],
  ['安', 'an'],
  ['鼎', 'ding'],
  ['远', 'yuan'],
  ['博', 'bo'],
  ['嘉', 'jia'],
  ['锦', 'jin'],
  ['凯', 'kai'],
  ['信', 'xin'],
  ['德', 'de'],
  ['丰', 'feng'],
  ['永', 'yong'],
  ['长', 'chang'],
  ['光', 'guang'],
  ['明', 'ming'],
  ['辰', 'chen'],
  ['星', 'xing'],
  ['正', 'zheng'],
  ['富', 'fu'],
  ['和', 'he'],
  ['立', 'li'],
  ['创', 'chuang'],
  ['晶', 'jing'],
  ['源', 'yuan'],
  ['航', 'hang'],
  ['宇', 'yu'],
  ['联', 'lian'],
  ['汇', 'hui'],
  ['峰', 'feng'],
  ['诚', 'cheng'],
  ['益', 'yi'],
  ['广', 'guang'],
  ['智', 'zhi'],
  ['云', 'yun'],
  ['浩', 'hao'],
  ['思', 'si'],
  ['美', 'mei'],
  ['银', 'yin'],
  ['江', 'jiang'],
  ['南', 'nan'],
  ['北', 'bei'],
  ['川', 'chuan'],
];

export interface CompanyName {
  brand: string;
  name: string;
  nameEn: string;
}

const capitalise = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Draws names with unique brands; `used` is shared across one generation. */
export function companyName(rng: Rng, industry: Industry, used: Set<string>): CompanyName {
  for (let attempt = 0; ; attempt++) {
    const a = rng.pick(CHARS),
      b = rng.pick(CHARS);
    if (a[0] === b[0]) continue;
    const brand = a[0] + b[0];
    if (used.has(brand) && attempt < 200) continue;
    // After many collisions (only in huge universes) a third character keeps the brand unique.
    const c = used.has(brand) ? rng.pick(CHARS) : null;
    const full = c ? brand + c[0] : brand;
    if (used.has(full)) continue;
    used.add(full);
    const [suffix, suffixEn] = rng.pick(industry.suffixes);
    const en = capitalise(a[1]) + b[1] + (c ? c[1] : '');
    return { brand: full, name: full + suffix, nameEn: `${en} ${suffixEn}` };
  }
}

/** The current short name of a stock under special treatment: *ST华兴 / ST华兴. */
export function stName(brand: string, star: boolean): string {
  return (star ? '*ST' : 'ST') + brand;
}
