"""Words shared by every message and page: how many of a thing."""


def counted(number: int, thing: str) -> str:
    """``number`` of ``thing``, in words: ``1 card``, ``18 cards``, ``1,000 games``."""
    return f"{number:,} {thing}{'s' * (number != 1)}"
