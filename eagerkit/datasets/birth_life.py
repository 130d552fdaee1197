"""A synthetic stand-in for CS20's ``birth_life_2010.txt`` (lecture 3 and 4 regressions).

The real file (World Bank 2010: birth rate and life expectancy of 190 countries) is not
shipped; these numbers are drawn to look like it: birth rates x in [1.05, 7.1], right-skewed
(x = 1 + Gamma(2.2, 0.8)), and life expectancy y = 85.7 - 5.7 x + noise, where the noise
is Student-t with 4 degrees of freedom, scaled to the real residual spread (5.5 years).
Its heavy tails put a few countries far off the line, which is why lecture 4 prefers the
Huber loss to the squared one.
"""

import numpy as np

from eagerkit.arguments import size, whole_number

INTERCEPT, SLOPE, NOISE_SD = 85.7, -5.7, 5.5


def birth_life_data(seed=0, n_samples=190):
    """``(birth_rate, life_expectancy)``: two float32 arrays of ``n_samples`` countries.

    The generating line is ``life = 85.7 - 5.7 * birth_rate`` (``INTERCEPT``, ``SLOPE``).

    Examples
    --------
    >>> import eagerkit as ek
    >>> x, y = ek.datasets.birth_life_data(seed=0)
    >>> x.shape, y.dtype, bool(1.05 <= x.min() and x.max() <= 7.1)
    ((190,), dtype('float32'), True)
    """
    rng = np.random.default_rng(whole_number(seed, "seed", "birth_life_data"))
    n_samples = size(n_samples, "n_samples", "birth_life_data")
    birth_rate = np.clip(1.0 + rng.gamma(shape=2.2, scale=0.8, size=n_samples), 1.05, 7.1)
    noise = rng.standard_t(df=4, size=n_samples) * NOISE_SD / np.sqrt(2.0)  # t4 has sd sqrt(2)
    life_expectancy = INTERCEPT + SLOPE * birth_rate + noise
    return birth_rate.astype(np.float32), life_expectancy.astype(np.float32)
