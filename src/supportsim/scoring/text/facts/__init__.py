"""Typed facts in Agent text: money, times, dates and days, numbers in digits and in
words, each with its role and scope (``_read``: ``ReadFact``; the tables in ``_vocab``,
``_words``, ``_numbers``, ``_clock``, ``_days``, ``_money``)."""

__all__: list[str] = []  # modules are imported where used; nothing is re-exported
