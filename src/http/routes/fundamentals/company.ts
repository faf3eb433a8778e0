import type { App } from '../../services.js';
import { instrumentIdParam, operation, pathInstrument, snapOf } from '../../route.js';
import { schemaPlan, sendPage } from '../../collection.js';
import {
  CompanyProfileResponse,
  InstitutionalHoldingCollectionResponse,
  ManagementHistoryCollectionResponse,
} from '../../schemas/company.js';
import { formatScaled, MONEY_SCALE } from '../../../lib/decimal.js';
import { formatDate } from '../../../lib/time.js';
import { notFound } from '../../../lib/errors.js';
import { holdingRecord, managementRecord } from './records.js';

/** getCompanyProfile, listInstitutionalHoldings, listManagementHistory. */
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

  app.get(
    '/api/v1/equities/:instrument_id/institutional-holdings',
    {
      schema: operation({
        operationId: 'listInstitutionalHoldings',
        tags: ['equities'],
        summary: 'Institutional holders disclosed with each periodic report, by report date then rank.',
        params: instrumentIdParam,
        response: InstitutionalHoldingCollectionResponse,
        notFound: true,
        collection: true,
      }),
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      return sendPage(
        req,
        reply,
        app.svc,
        'listInstitutionalHoldings',
        ['date', 'int'],
        schemaPlan(
          reply,
          InstitutionalHoldingCollectionResponse,
          (p) => snapOf(req).fundamentals.institutionalHoldings(inst.inst, p),
          (r) => [r.report_date, r.rank],
          holdingRecord(inst.id),
        ),
      );
    },
  );

  app.get(
    '/api/v1/equities/:instrument_id/management-history',
    {
      schema: operation({
        operationId: 'listManagementHistory',
        tags: ['equities'],
        summary: 'Directors, supervisors and senior managers, past and present, by start date.',
        params: instrumentIdParam,
        response: ManagementHistoryCollectionResponse,
        notFound: true,
        collection: true,
      }),
    },
    async (req, reply) => {
      const inst = await pathInstrument(req, 'equity');
      return sendPage(
        req,
        reply,
        app.svc,
        'listManagementHistory',
        ['int'],
        schemaPlan(
          reply,
          ManagementHistoryCollectionResponse,
          (p) => snapOf(req).fundamentals.management(inst.inst, p),
          (r) => [r.seq],
          managementRecord(inst.id),
        ),
      );
    },
  );
}
