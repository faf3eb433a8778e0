"""market-data-service as an OpenBB Platform provider (``provider="mds"``).

Registered by the entry point ``openbb_provider_extension: mds = "openbb_mds:mds_provider"``
(pyproject.toml). The server and key come from the credentials ``mds_base_url`` and
``mds_api_key`` (``obb.user.credentials``), else from ``MDS_URL`` and ``MDS_KEY``.

>>> from openbb import obb
>>> obb.equity.price.historical("600519.SH", provider="mds", adjustment="forward").to_df()

The provider is made on first access (``openbb_mds.mds_provider``, what the entry point reads), so
that the rest of the package (``openbb_mds.rows``) imports without openbb-core.
"""

from typing import Any

__all__ = ["mds_provider"]


def __getattr__(name: str) -> Any:
    if name == "mds_provider":
        from .provider import mds_provider

        return mds_provider
    raise AttributeError(f"module 'openbb_mds' has no attribute {name!r}")
