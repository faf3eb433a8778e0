"""Dividends: HistoricalDividends (``obb.equity.fundamental.dividends``)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from openbb_core.provider.abstract.fetcher import Fetcher
from openbb_core.provider.standard_models.historical_dividends import HistoricalDividendsData, HistoricalDividendsQueryParams

from ..connect import client
from ..rows import dividend_rows


class MdsHistoricalDividendsQueryParams(HistoricalDividendsQueryParams):
    """An equity's dividends with an ex-date from start_date to end_date (inclusive)."""


class MdsHistoricalDividendsData(HistoricalDividendsData):
    """``amount``: cash per share before tax, CNY (0 when only shares were given); bonus and transfer shares per share beside it."""


class MdsHistoricalDividendsFetcher(Fetcher[MdsHistoricalDividendsQueryParams, List[MdsHistoricalDividendsData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsHistoricalDividendsQueryParams:
        return MdsHistoricalDividendsQueryParams(**params)

    @staticmethod
    def extract_data(
        query: MdsHistoricalDividendsQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any
    ) -> List[Dict[str, Any]]:
        with client(credentials) as mds:
            return dividend_rows(mds.list_dividends(query.symbol, from_=query.start_date, to=query.end_date))

    @staticmethod
    def transform_data(
        query: MdsHistoricalDividendsQueryParams, data: List[Dict[str, Any]], **kwargs: Any
    ) -> List[MdsHistoricalDividendsData]:
        return [MdsHistoricalDividendsData.model_validate(r) for r in data]
