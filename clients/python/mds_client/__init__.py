"""market-data-service (mds) from Python: ``Client`` answers DataFrames.

    from mds_client import Client
    client = Client()  # MDS_URL (default http://127.0.0.1:8080) and MDS_KEY
    bars = client.bars(["600519.SH", "000001.SZ"], start="2025-11-20", end="2026-11-20")

docs/clients.md walks through it.
"""

from ._base import DateLike, __version__
from ._http import MdsError
from .client import Client

__all__ = ["Client", "DateLike", "MdsError", "__version__"]
