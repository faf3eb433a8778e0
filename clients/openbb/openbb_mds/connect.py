"""The ``mds_client.Client`` a fetcher reads through: the Platform's credentials ``mds_base_url`` and
``mds_api_key`` (``obb.user.credentials``), else ``MDS_URL`` and ``MDS_KEY`` as ``Client()`` reads them."""

from __future__ import annotations

from datetime import date
from typing import Any, Callable, Dict, List, Mapping, Optional

import pandas as pd
from mds_client import Client

from .rows import bar_rows


def client(credentials: Optional[Mapping[str, Optional[str]]]) -> Client:
    creds = credentials or {}
    return Client(creds.get("mds_base_url") or None, creds.get("mds_api_key") or None)


def symbols(listed: str) -> List[str]:
    """The symbols of a query's ``symbol`` (comma-separated when several are asked)."""
    return [s.strip() for s in listed.split(",") if s.strip()]


def bars_of_symbols(
    credentials: Optional[Mapping[str, Optional[str]]],
    listed: str,
    interval: str,
    start: Optional[date],
    end: Optional[date],
    read: Callable[[Client, str], pd.DataFrame],
) -> List[Dict[str, Any]]:
    """Each symbol's bars (``read(client, symbol)``: every page) as OpenBB's historical rows, tagged
    with their symbol when several are asked; EmptyDataError when none of them has a bar."""
    from openbb_core.provider.utils.errors import EmptyDataError  # the Platform's, only where it is installed

    wanted = symbols(listed)
    with client(credentials) as mds:
        rows: List[Dict[str, Any]] = []
        for s in wanted:
            rows += bar_rows(read(mds, s), interval, s if len(wanted) > 1 else None)
    if not rows:
        raise EmptyDataError(f"No bars of {listed} from {start} to {end}.")
    return rows
