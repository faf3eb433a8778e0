"""Instrument search: EquitySearch (``obb.equity.search``)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from openbb_core.provider.abstract.fetcher import Fetcher
from openbb_core.provider.standard_models.equity_search import EquitySearchData, EquitySearchQueryParams

from ..connect import client
from ..rows import search_rows


class MdsEquitySearchQueryParams(EquitySearchQueryParams):
    """Equities by code (600519, 6005), name (贵州茅台, 茅台) or pinyin initials (gzmt); empty: every equity."""


class MdsEquitySearchData(EquitySearchData):
    """An equity found: symbol (CODE.MARKET), name, and its exchange, board and listing date."""


class MdsEquitySearchFetcher(Fetcher[MdsEquitySearchQueryParams, List[MdsEquitySearchData]]):
    require_credentials = False

    @staticmethod
    def transform_query(params: Dict[str, Any]) -> MdsEquitySearchQueryParams:
        return MdsEquitySearchQueryParams(**params)

    @staticmethod
    def extract_data(query: MdsEquitySearchQueryParams, credentials: Optional[Dict[str, str]], **kwargs: Any) -> List[Dict[str, Any]]:
        with client(credentials) as mds:
            q = query.query.strip()
            found = mds.search_instruments(q=q, kind="equity") if q else mds.list_equities()
        rows = search_rows(found)
        # is_symbol: the query is a code or an id, matched as such (the search ranks exact ids first).
        return [r for r in rows if r["symbol"].startswith(q.upper())] if query.is_symbol else rows

    @staticmethod
    def transform_data(query: MdsEquitySearchQueryParams, data: List[Dict[str, Any]], **kwargs: Any) -> List[MdsEquitySearchData]:
        return [MdsEquitySearchData.model_validate(r) for r in data]
