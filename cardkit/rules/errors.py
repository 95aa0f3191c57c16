"""The one error the rules raise: input that cannot happen in the game."""


class RulesError(ValueError):
    """Impossible input (a card that does not exist, five Ragusa players...): ``what`` is
    wrong and ``fix`` says what would be right. A designer's deck that the rules refuse
    for one of its cards gives ``card``, the index of that printed copy, so that the
    message can name the card and where it is written."""

    def __init__(self, what: str, fix: str = "", card: int | None = None):
        super().__init__(f"{what}; {fix}" if fix else what)
        self.what, self.fix, self.card = what, fix, card
