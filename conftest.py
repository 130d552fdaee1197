"""Settings for every pytest run here: the unit tests (tests/) and nbval of the lessons.

Keras' ``fit`` draws no live progress bar (its redrawn line carries a clock): the kernels
nbval starts for the lessons inherit this environment, so they print the final lines only.
"""

import os

os.environ.setdefault("EAGERKIT_LIVE_PROGRESS", "0")
