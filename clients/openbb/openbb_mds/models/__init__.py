"""The provider's fetchers, one model per file (openbb_core standard models)."""
