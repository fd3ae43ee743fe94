"""The documents: reading them (sources, markup), their sentences (segmentation) and which of them the catalog
checks (coverage)."""
