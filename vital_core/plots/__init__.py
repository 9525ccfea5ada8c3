"""What the command line and the app draw alike: the colours and bar patterns of the conditions
(``colours``, no dependency) and the paper's figures as SVG and PNG files (``figures``, matplotlib,
imported only when figures are written)."""
