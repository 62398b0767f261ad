"""The data layer: reading multi-label datasets (``loaders``), generating synthetic ones
(``synthetic``) and describing them (``stats``)."""
