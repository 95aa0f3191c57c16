"""The one error the rules raise: input that cannot happen in the game."""


class RulesError(ValueError):
    """Impossible input (a card that does not exist, five Ragusa players...): ``what`` is
    wrong and ``fix`` says what would be right."""

    def __init__(self, what: str, fix: str = ""):
        super().__init__(f"{what}; {fix}" if fix else what)
        self.what, self.fix = what, fix
