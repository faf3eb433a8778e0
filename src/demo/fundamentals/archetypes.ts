/**
 * Financial shapes of the demo industries: valuation multiples that scale a company's
 * statements to its market value, margins, balance-sheet structure and growth. Rough medians
 * of the A-share market by industry group; each company draws its own values around them.
 */
export interface Archetype {
  /** Market value / annual revenue. */
  ps: number;
  /** Market value / equity attributable. */
  pb: number;
  /** Gross margin and operating margin, fractions of revenue. */
  gm: number;
  opm: number;
  /** Total liabilities / total equity. */
  lev: number;
  /** Current assets / total assets; inventory and receivables as shares of current assets. */
  ca: number;
  inv: number;
  rec: number;
  /** Current liabilities / total liabilities. */
  cl: number;
  /** Capital expenditure / revenue. */
  capex: number;
  /** Mean yearly revenue growth (log). */
  growth: number;
  /** Revenue per employee (CNY). */
  revPerEmployee: number;
  /** Chance that a year without a dividend to fund is a loss. */
  lossChance: number;
  /** Income tax rate (25% standard, 15% for high and new technology enterprises). */
  tax: number;
}

const A = (x: Archetype) => x;

export const ARCHETYPES = {
  bank: A({
    ps: 2.5,
    pb: 0.6,
    gm: 0.45,
    opm: 0.42,
    lev: 11,
    ca: 0.35,
    inv: 0,
    rec: 0.05,
    cl: 0.9,
    capex: 0.02,
    growth: 0.03,
    revPerEmployee: 2.5e6,
    lossChance: 0,
    tax: 0.25,
  }),
  finance: A({
    ps: 4,
    pb: 1.4,
    gm: 0.45,
    opm: 0.32,
    lev: 3.5,
    ca: 0.6,
    inv: 0,
    rec: 0.1,
    cl: 0.85,
    capex: 0.02,
    growth: 0.05,
    revPerEmployee: 3e6,
    lossChance: 0.05,
    tax: 0.25,
  }),
  property: A({
    ps: 0.9,
    pb: 0.6,
    gm: 0.22,
    opm: 0.08,
    lev: 3.2,
    ca: 0.8,
    inv: 0.6,
    rec: 0.05,
    cl: 0.75,
    capex: 0.01,
    growth: -0.02,
    revPerEmployee: 4e6,
    lossChance: 0.25,
    tax: 0.25,
  }),
  tech: A({
    ps: 4.5,
    pb: 3.5,
    gm: 0.38,
    opm: 0.11,
    lev: 0.6,
    ca: 0.65,
    inv: 0.2,
    rec: 0.35,
    cl: 0.8,
    capex: 0.06,
    growth: 0.12,
    revPerEmployee: 1.2e6,
    lossChance: 0.15,
    tax: 0.15,
  }),
  manufacturing: A({
    ps: 1.6,
    pb: 2.2,
    gm: 0.24,
    opm: 0.08,
    lev: 1.1,
    ca: 0.55,
    inv: 0.3,
    rec: 0.3,
    cl: 0.8,
    capex: 0.06,
    growth: 0.07,
    revPerEmployee: 1.5e6,
    lossChance: 0.08,
    tax: 0.15,
  }),
  resources: A({
    ps: 1,
    pb: 1.3,
    gm: 0.25,
    opm: 0.13,
    lev: 1.2,
    ca: 0.35,
    inv: 0.2,
    rec: 0.15,
    cl: 0.6,
    capex: 0.1,
    growth: 0.02,
    revPerEmployee: 2.5e6,
    lossChance: 0.06,
    tax: 0.25,
  }),
  consumer: A({
    ps: 5,
    pb: 4.5,
    gm: 0.55,
    opm: 0.25,
    lev: 0.5,
    ca: 0.6,
    inv: 0.45,
    rec: 0.08,
    cl: 0.85,
    capex: 0.04,
    growth: 0.08,
    revPerEmployee: 1.5e6,
    lossChance: 0.03,
    tax: 0.25,
  }),
  infrastructure: A({
    ps: 1.4,
    pb: 1.2,
    gm: 0.22,
    opm: 0.12,
    lev: 1.8,
    ca: 0.3,
    inv: 0.1,
    rec: 0.3,
    cl: 0.55,
    capex: 0.15,
    growth: 0.05,
    revPerEmployee: 2e6,
    lossChance: 0.05,
    tax: 0.25,
  }),
  services: A({
    ps: 1.5,
    pb: 2,
    gm: 0.3,
    opm: 0.06,
    lev: 1,
    ca: 0.5,
    inv: 0.25,
    rec: 0.2,
    cl: 0.8,
    capex: 0.05,
    growth: 0.05,
    revPerEmployee: 1e6,
    lossChance: 0.12,
    tax: 0.25,
  }),
} as const;

export type ArchetypeId = keyof typeof ARCHETYPES;

const BY_INDUSTRY: Record<string, ArchetypeId> = {
  banks: 'bank',
  non_bank_finance: 'finance',
  real_estate: 'property',
  electronics: 'tech',
  computers: 'tech',
  telecom: 'tech',
  media: 'tech',
  pharma: 'tech',
  defense: 'tech',
  power_equipment: 'manufacturing',
  machinery: 'manufacturing',
  autos: 'manufacturing',
  home_appliances: 'manufacturing',
  chemicals: 'manufacturing',
  building_materials: 'manufacturing',
  light_industry: 'manufacturing',
  textiles_apparel: 'manufacturing',
  beauty_care: 'manufacturing',
  coal: 'resources',
  petrochemicals: 'resources',
  steel: 'resources',
  nonferrous_metals: 'resources',
  food_beverage: 'consumer',
  utilities: 'infrastructure',
  transportation: 'infrastructure',
  construction: 'infrastructure',
  environmental: 'infrastructure',
  agriculture: 'services',
  retail: 'services',
  social_services: 'services',
  conglomerates: 'services',
};

/** The archetype of an industry key (`industry.<key>` classification); manufacturing when unknown. */
export function archetypeOf(industryKey: string | undefined): Archetype {
  return ARCHETYPES[BY_INDUSTRY[industryKey ?? ''] ?? 'manufacturing'];
}
