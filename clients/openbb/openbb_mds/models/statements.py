"""The three statements: BalanceSheet, IncomeStatement, CashFlowStatement
(``obb.equity.fundamental.balance``, ``.income``, ``.cash``)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional

from openbb_core.provider.abstract.fetcher import Fetcher
from openbb_core.provider.standard_models.balance_sheet import BalanceSheetData, BalanceSheetQueryParams
from openbb_core.provider.standard_models.cash_flow import CashFlowStatementData, CashFlowStatementQueryParams
from openbb_core.provider.standard_models.income_statement import IncomeStatementData, IncomeStatementQueryParams
from pydantic import Field

from ..connect import client
from ..rows import statement_rows

Period = Literal["annual", "quarter"]
PERIOD = Field(
    default="annual",
    description="annual: the fiscal years; quarter: every report (Q1, Q2 the half year, Q3, FY), each cumulative from January 1.",
)
#: The mds_client method of each statement.
METHODS = {"balance": "list_balance_sheets", "income": "list_income_statements", "cash": "list_cash_flow_statements"}


def _extract(which: str, query: Any, credentials: Optional[Dict[str, str]]) -> List[Dict[str, Any]]:
    with client(credentials) as mds:
        frame = getattr(mds, METHODS[which])(query.symbol)
    return statement_rows(frame, query.period, query.limit)


class MdsBalanceSheetQueryParams(BalanceSheetQueryParams):
    """An equity's balance sheets, newest first (each period's latest version)."""

    period: Period = PERIOD


class MdsBalanceSheetData(BalanceSheetData):
    """A balance sheet at period_ending, CNY: total_assets ... share_capital, and its announce_date."""


class MdsBalanceSheetFetcher(Fetcher[MdsBalanceSheetQueryParams, List[MdsBalanceSheetData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsBalanceSheetQueryParams:
        return MdsBalanceSheetQueryParams(**params)

    @staticmethod
    def extract_data(query: MdsBalanceSheetQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        return _extract("balance", query, credentials)

    @staticmethod
    def transform_data(query: MdsBalanceSheetQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsBalanceSheetData]:
        return [MdsBalanceSheetData.model_validate(r) for r in data]


class MdsIncomeStatementQueryParams(IncomeStatementQueryParams):
    """An equity's income statements, newest first (each period's latest version)."""

    period: Period = PERIOD


class MdsIncomeStatementData(IncomeStatementData):
    """An income statement, year to date, CNY: revenue ... net_profit_attributable, basic_eps, and its announce_date."""


class MdsIncomeStatementFetcher(Fetcher[MdsIncomeStatementQueryParams, List[MdsIncomeStatementData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsIncomeStatementQueryParams:
        return MdsIncomeStatementQueryParams(**params)

    @staticmethod
    def extract_data(query: MdsIncomeStatementQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        return _extract("income", query, credentials)

    @staticmethod
    def transform_data(query: MdsIncomeStatementQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsIncomeStatementData]:
        return [MdsIncomeStatementData.model_validate(r) for r in data]


class MdsCashFlowStatementQueryParams(CashFlowStatementQueryParams):
    """An equity's cash-flow statements, newest first (each period's latest version)."""

    period: Period = PERIOD


class MdsCashFlowStatementData(CashFlowStatementData):
    """A cash-flow statement, year to date, CNY: operating_cash_flow ... cash_end, and its announce_date."""


class MdsCashFlowStatementFetcher(Fetcher[MdsCashFlowStatementQueryParams, List[MdsCashFlowStatementData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsCashFlowStatementQueryParams:
        return MdsCashFlowStatementQueryParams(**params)

    @staticmethod
    def extract_data(query: MdsCashFlowStatementQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        return _extract("cash", query, credentials)

    @staticmethod
    def transform_data(query: MdsCashFlowStatementQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsCashFlowStatementData]:
        return [MdsCashFlowStatementData.model_validate(r) for r in data]
