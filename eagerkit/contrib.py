"""``ek.contrib``: where TF 1.x kept the eager-era APIs, for code written against them.

``tf.contrib.summary`` is ``ek.summary`` (writers, ``scalar``, ``histogram`` and the
recording policies such as ``always_record_summaries``). ``tf.contrib.eager`` (``tfe``) is
eagerkit itself: write ``import eagerkit as tfe``.

Examples
--------
>>> import eagerkit as ek
>>> ek.contrib.summary is ek.summary
True
"""

from eagerkit import summary

__all__ = ["summary"]
