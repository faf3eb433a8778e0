"""The provider: its name, credentials and a fetcher per standard model."""

from openbb_core.provider.abstract.provider import Provider

from .models.equity_historical import MdsEquityHistoricalFetcher
from .models.equity_info import MdsEquityInfoFetcher
from .models.equity_search import MdsEquitySearchFetcher
from .models.historical_dividends import MdsHistoricalDividendsFetcher
from .models.index_historical import MdsIndexHistoricalFetcher
from .models.statements import MdsBalanceSheetFetcher, MdsCashFlowStatementFetcher, MdsIncomeStatementFetcher

mds_provider = Provider(
    name="mds",
    description="""market-data-service (mds): a self-hosted, read-only API of Chinese A-share market data:
bars of any interval with forward/backward adjustment, instruments, company profiles, dividends,
the three statements (point in time), and index bars.""",
    # Both optional: MDS_URL (default http://127.0.0.1:8080) and MDS_KEY are read when unset.
    credentials=["base_url", "api_key"],
    fetcher_dict={
        "EquityHistorical": MdsEquityHistoricalFetcher,
        "EquitySearch": MdsEquitySearchFetcher,
        "EquityInfo": MdsEquityInfoFetcher,
        "HistoricalDividends": MdsHistoricalDividendsFetcher,
        "BalanceSheet": MdsBalanceSheetFetcher,
        "IncomeStatement": MdsIncomeStatementFetcher,
        "CashFlowStatement": MdsCashFlowStatementFetcher,
        "IndexHistorical": MdsIndexHistoricalFetcher,
    },
    repr_name="market-data-service",
)
