"""Statistics over scored sets: the two conventions (``conventions``), the paper's tables (``report``,
``paper_stats``), sensitivity tests (``stats``), labelling agreement (``agreement``), the one-example
story (``story``) and quality gates (``check``)."""
