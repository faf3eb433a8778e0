import type { App } from '../../services.js';
import { instrumentScope } from '../../scopes.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { CompanyProfileResponse } from '../../schemas/company.js';
import { formatScaled, MONEY_SCALE } from '../../../lib/decimal.js';
import { formatDate } from '../../../lib/time.js';
import { notFound } from '../../../lib/errors.js';

/** getCompanyProfile. */
export function registerCompany(app: App) {
  app.get(
    '/api/v1/equities/:instrument_id/company-profile',
    {
      schema: operation({
        operationId: 'getCompanyProfile',
        tags: ['equities'],
        summary: 'The company behind an equity.',
        params: instrumentIdParam,
        response: CompanyProfileResponse,
        notFound: true,
      }),
      config: { behaviour: { scope: instrumentScope(['company_profiles']) } },
    },
    async (req) => {
      const inst = await pathInstrument(req, 'equity');
      const p = await snapOf(req).fundamentals.companyProfile(inst.inst);
      if (!p) throw notFound(`No company profile for ${inst.id}`);
      return {
        data: {
          instrument_id: inst.id,
          name: inst.name,
          full_name: p.full_name,
          english_name: p.english_name,
          list_date: inst.list_date === null ? null : formatDate(inst.list_date),
          established_date: formatDate(p.established_date),
          legal_representative: p.legal_representative,
          registered_capital: formatScaled(p.registered_capital, MONEY_SCALE, 2),
          address: p.address,
          province: p.province,
          website: p.website,
          employees: p.employees,
          main_business: p.main_business,
          introduction: p.introduction,
        },
      };
    },
  );
}
