"""The ``mds_client.Client`` a fetcher reads through: the Platform's credentials ``mds_base_url`` and
``mds_api_key`` (``obb.user.credentials``), else ``MDS_URL`` and ``MDS_KEY`` as ``Client()`` reads them."""

from __future__ import annotations

from typing import Mapping, Optional

from mds_client import Client


def client(credentials: Optional[Mapping[str, Optional[str]]]) -> Client:
    creds = credentials or {}
    return Client(creds.get("mds_base_url") or None, creds.get("mds_api_key") or None)
