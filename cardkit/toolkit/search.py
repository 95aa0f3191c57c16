"""The search bot: a player for any game that looks ahead without peeking.

It follows single-observer information-set Monte Carlo tree search (SO-ISMCTS) as Cowling,
Powley and Whitehouse describe it ("Information Set Monte Carlo Tree Search", IEEE
Transactions on Computational Intelligence and AI in Games 4(2), 2012, algorithm 3). Each
iteration:

1. **determinize**: sample a whole game the seat might be in, dealing again every card it
   cannot see (:meth:`~cardkit.toolkit.state.State.determinized`, which the runner hands
   over as ``worlds``); the real game is never read, and a designer's samples are games of
   the rules file imported a second time (``CardGame.samples_class``), so that what the
   real game keeps in the file's module, classes and functions is not in them. With
   ``trust`` below 1, samples in which the other seats lied are drawn again as often as
   the lies are unlikely (:meth:`SearchBot.believed`);
2. **select**: from the root, while every legal move of this sample has been tried, take
   the move whose node scores best by UCB1, counting a node's trials only among the
   samples in which its move was legal ("availability");
3. **expand**: add one untried legal move;
4. **play out**: random moves to the end;
5. **back up**: each node on the way adds the final return of the seat that made its move.

The move played is the root's most tried. With ``compare`` above 0 the bot builds no tree:
it plays out a few candidate moves, each from the same samples, by its guide
(:meth:`SearchBot._compared`), and leaves the guide's move only for one that does better
beyond the samples' noise. Where this departs from the paper: the
exploration constant is a parameter (``exploration``, 0.7 by default, as the paper's
experiments use); a playout longer than :data:`MAX_PLAYOUT` moves counts as nobody
winning; and the moves of the other seats are treated as seen by everyone (the paper's
single-observer variant), which over-trusts what the others do with hidden cards but
needs one tree.
"""

from __future__ import annotations

import math
import random
import statistics
import time

from ..rules.errors import RulesError
from .state import Bot

MAX_PLAYOUT = 10_000


def redeal(places, rng, group=None) -> None:
    """Deal the cards at ``places`` ((list, index) pairs) again at random among those
    places, each ``group(card)`` apart (by back, by colour): a game's :meth:`determinized`
    does this with the places a seat cannot see. The cards are put in order before they
    are shuffled, so how they lay before changes nothing.

    >>> import random
    >>> hand, deck = ["a", "B"], ["c", "D", "e"]
    >>> redeal([(hand, 0), (hand, 1), (deck, 0), (deck, 1), (deck, 2)], random.Random(3),
    ...        group=str.isupper)
    >>> sorted(hand + deck), [card.isupper() for card in hand + deck]
    (['B', 'D', 'a', 'c', 'e'], [False, True, False, True, False])
    """
    if group is None:
        _shuffle_among(places, rng)
        return
    groups: dict = {}
    for place in places:
        groups.setdefault(group(place[0][place[1]]), []).append(place)
    for key in sorted(groups, key=repr):
        _shuffle_among(groups[key], rng)


def _shuffle_among(places, rng) -> None:
    draw = rng.random
    # sorting by a random number for each card gives a uniformly random order, as
    # shuffle() does, at a fifth of its cost: a search deals thousands of times a move
    dealt = sorted(sorted([held[i] for held, i in places]), key=lambda _: draw())
    for (held, i), card in zip(places, dealt):
        held[i] = card


BELIEF_DRAWS = 8  # samples drawn at most for one that the others' claims make likely
GUIDE_BIAS = 20.0  # the guide's bonus that measured best (docs: the ablation)
GUIDE_DRAWS = 2  # dice the guide is asked with a candidate to widen by (SearchBot.candidates)


def own_bot(bots: dict) -> str | None:
    """The game's own player among ``bots``: its ``heuristic``, else the first bot its
    designer wrote (the starter's ``builder``); None if it has none."""
    own = [name for name, made in bots.items() if name != "random" and not made.searches]
    return "heuristic" if "heuristic" in own else own[0] if own else None


def fair_guide(bots: dict) -> str | None:
    """The bot the search follows by default (``guide=auto``): the game's own bot that
    its author marked ``fair = True`` (the ``heuristic`` first), else none. Never simply
    the first bot of a rules file, which may be a debugging aid that reads the game.

    >>> from cardkit.toolkit.state import RandomBot
    >>> class Debug(RandomBot): pass
    >>> class Builder(RandomBot): fair = True
    >>> fair_guide({"debug": Debug, "builder": Builder}), fair_guide({"debug": Debug})
    ('builder', None)
    """
    fair = [name for name, made in bots.items()
            if name != "random" and not made.searches and made.fair]
    return "heuristic" if "heuristic" in fair else fair[0] if fair else None


class _Node:
    __slots__ = ("move", "player", "children", "visits", "reward", "avail")

    def __init__(self, move=None, player: int = -1):
        self.move, self.player = move, player
        self.children: dict = {}
        self.visits, self.reward, self.avail = 0, 0.0, 1


class SearchBot(Bot):
    """Looks ahead by information-set MCTS: ``iterations`` samples a move (or, with
    ``seconds`` above 0, as many as fit in that time: faster, but no longer the same from
    the same seed). ``playout``: who plays the samples to their end, ``random`` or one of
    the game's bots (``heuristic``, a designer's own), each move of it random with chance
    ``epsilon``; ``guide``: a bot of the game whose move the root favours, by ``bias``
    (progressive bias, Chaslot et al. 2008: a bonus of ``bias`` / (1 + trials) that more
    samples wash out), ``auto`` (the default) for the game's own bot marked fair (:func:`fair_guide`), ``none``
    for no guide; ``margin``: how much of a sample's reward is the seat's lead over the
    best other score (the rest is the win); ``trust``: how likely the search believes a
    lie of another seat is against the truth (1: claims tell it nothing), by which it
    weighs its samples (:meth:`believed`); ``compare``: above 0, no tree but paired
    rollouts of the guide's move against up to that many others, the guide's kept unless
    another beats it by ``sure`` standard errors (:meth:`_compared`). The defaults are
    what measured best (in the docs' ablation table); a game may set its own
    (:meth:`tuned`)."""

    PARAMS = {"iterations": 200.0, "exploration": 0.7, "seconds": 0.0, "playout": "random",
              "epsilon": 0.0, "guide": "auto", "bias": GUIDE_BIAS, "margin": 0.0,
              "trust": 1.0, "compare": 0.0, "sure": 0.5}
    RANGES = {"iterations": (1, 1_000_000), "exploration": (0, 10), "seconds": (0, 600),
              "bias": (0, 1000), "compare": (0, 1000), "sure": (0, 10)}
    observes = False  # it reads sampled games, not the observation
    searches = True  # the runner hands it ``worlds``

    def __init__(self, bots: dict | None = None, **params):
        """``bots``: the game's bots by name, from which ``playout`` and ``guide`` are
        taken."""
        super().__init__(**params)
        self.playout = self._bot("playout", "random", bots)  # None: random moves
        self.guide = self._bot("guide", "none", bots)  # None: no move favoured

    @classmethod
    def tuned(cls, **defaults: float | str) -> type[SearchBot]:
        """This bot with other ``defaults`` for some of its parameters: those that measured
        best in one game (docs: the ablation), e.g. fewer samples a move where samples
        cost more, so that a game takes at most 2 s on one core."""
        unknown = set(defaults) - set(cls.PARAMS)
        if unknown:
            raise TypeError(f"the search bot has no parameter {sorted(unknown)[0]!r}")
        return type(cls.__name__, (cls,), {"__doc__": cls.__doc__, "__module__": cls.__module__,
                                           "PARAMS": {**cls.PARAMS, **defaults}})

    @classmethod
    def on_bots(cls, fixed: dict) -> type[SearchBot]:
        """This bot taking its guide and playout from ``fixed`` whatever it is handed: a
        designer's game gives those of the separate copy of its rules that its samples
        are made of (:attr:`~cardkit.toolkit.game.CardGame.samples_class`), so that a bot
        reading the rules file's module state reads the copy's, never the real game's."""
        def __init__(self, bots: dict | None = None, **params):
            cls.__init__(self, fixed, **params)
        return type(cls.__name__, (cls,), {"__doc__": cls.__doc__, "__module__": cls.__module__,
                                           "__init__": __init__})

    def _bot(self, param: str, nobody: str, bots: dict | None):
        """A new bot of the game named by parameter ``param`` (None if it says ``nobody``)."""
        name = self.params[param]
        if name == "auto" and param == "guide":
            name = fair_guide(bots or {}) or nobody
        if name == nobody:
            return None
        others = [n for n, made in (bots or {}).items() if n != "random" and not made.searches]
        if name not in others:
            raise RulesError(f"bot parameter '{param}' is {name!r}, which is no bot of this "
                             "game that can " + ("play out samples" if param == "playout"
                                                 else "guide the search"),
                             f"give it {nobody}" + (" or auto" if param == "guide" else "")
                             + "".join(f" or {n}" for n in others))
        return bots[name]()

    def choose(self, observation, moves, rng, worlds=None):
        if len(moves) == 1:
            return moves[0]
        if worlds is None:
            raise RulesError("the search bot needs the game's samples of what a seat "
                             "cannot see", "play it through cardkit simulate")
        if self.params["compare"]:
            return self._compared(moves, rng, worlds)
        root = _Node()
        favoured = self._favoured(moves, rng, worlds)
        deadline = (time.perf_counter() + self.params["seconds"]
                    if self.params["seconds"] else None)
        for done in range(int(self.params["iterations"]) if deadline is None else 10**9):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, self.believed(worlds, rng), rng, favoured)
        tried = [root.children[move] for move in moves if move in root.children]
        return max(tried, key=lambda node: (node.visits, node.move == favoured)).move

    def believed(self, worlds, rng):
        """A sample drawn as likely as the others' claims make it (a particle filter,
        Whitehouse et al., AIIDE 2013): each sample in which another seat lied ``lies``
        times is kept with chance ``trust`` ** lies, else another is drawn, up to
        BELIEF_DRAWS; past those, the one with the fewest lies. The model of a player is
        the games' heuristics': they tell the truth when they can. It reads the samples
        only, which are made from what the seat saw."""
        trust, best = self.params["trust"], None
        for _ in range(BELIEF_DRAWS if trust < 1 else 1):
            world = worlds(rng)
            lies = world.lies(world.current_player()) if trust < 1 else 0
            if not lies or rng.random() < trust ** lies:
                return world
            if best is None or lies < best[0]:
                best = (lies, world)
        return best[1]

    def _favoured(self, moves, rng, worlds):
        """The move the guide would make here (None without one), from the seat's
        observation of a sample: it is the seat's own, whatever the sample."""
        if self.guide is None:
            return None
        world = worlds(rng)
        seen = world.observation(world.current_player()) if self.guide.observes else None
        return self.guide.choose(seen, moves, rng)

    def candidates(self, moves, rng, worlds) -> list:
        """The moves :meth:`_compared` plays out: the guide's move first, then up to
        ``compare`` others, widening in the guide's order: every legal move when there are
        that few, else the other moves the guide makes with other dice (a bluff, a
        partner picked at random), so that a big decision (hundreds of ways to play
        cards) costs only what the guide itself would consider. Without a guide,
        ``compare`` + 1 moves at random."""
        wanted = int(self.params["compare"])
        if self.guide is None:
            return rng.sample(moves, min(len(moves), wanted + 1))
        world = worlds(rng)
        seen = world.observation(world.current_player()) if self.guide.observes else None
        favoured = self.guide.choose(seen, moves, rng)
        if len(moves) <= wanted + 1:
            return [favoured] + [move for move in moves if move != favoured]
        found = [favoured]
        for _ in range(GUIDE_DRAWS * wanted):
            move = self.guide.choose(seen, moves, rng)
            if move not in found:
                found.append(move)
                if len(found) > wanted:
                    break
        return found

    def _compared(self, moves, rng, worlds):
        """Paired rollouts (``compare`` above 0): a one-step improvement on the guide
        (Tesauro and Galperin, "On-line policy improvement using Monte-Carlo search",
        NIPS 1996). Each of ``iterations`` samples deals the unseen cards once and rolls
        the dice once; every candidate move is played from that same deal with those
        same dice, then every seat plays on as the guide would (as ``playout`` says
        without a guide): the estimate is of the guide's play after each move, the play
        this improves on. The guide's move stays unless another beats it by more than
        ``sure`` standard errors of their paired difference: the same deal and dice
        cancel the luck both moves share, so a few samples tell apart moves that as many
        independent ones could not (docs: paired rollouts). Without a guide, the best
        mean."""
        candidates = self.candidates(moves, rng, worlds)
        if len(candidates) == 1:
            return candidates[0]
        results, rollout = [[] for _ in candidates], self.guide or self.playout
        for _ in range(int(self.params["iterations"])):
            deal, dice = rng.getrandbits(64), rng.getrandbits(64)
            for move, result in zip(candidates, results):
                world = self.believed(worlds, random.Random(deal))
                seat = world.current_player()
                world.apply(move)
                self.play_out(world, random.Random(dice), rollout)
                result.append(self.rewards(world)[seat] if world.is_over() else 0.0)
        if self.guide is None:
            return max(zip(candidates, results), key=lambda pair: sum(pair[1]))[0]
        best, edge = candidates[0], 0.0
        for move, result in zip(candidates[1:], results[1:]):
            gains = [mine - guided for mine, guided in zip(result, results[0])]
            mean = statistics.fmean(gains)
            spread = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0
            if mean - self.params["sure"] * spread > edge:
                best, edge = move, mean - self.params["sure"] * spread
        return best

    def _iterate(self, root: _Node, world, rng, favoured=None) -> None:
        exploration, bias = self.params["exploration"], self.params["bias"]
        path, node = [], root
        while not world.is_over():
            legal = world.legal_moves()
            untried = [move for move in legal if move not in node.children]
            if untried:
                # the guide's move is tried first: a budget smaller than the moves (shapes'
                # 81 takings) would else leave it to chance
                # (looked up among the tried first: a scan of hundreds of moves costs)
                move = (favoured if node is root and favoured is not None
                        and favoured not in node.children and favoured in untried else
                        untried[rng.randrange(len(untried))])
                child = node.children[move] = _Node(move, world.current_player())
                world.apply(move)
                path.append(child)
                break
            children = [node.children[move] for move in legal]
            for child in children:
                child.avail += 1
            guided = root.children.get(favoured) if node is root else None
            node = max(children, key=lambda c: c.reward / c.visits + exploration
                       * math.sqrt(math.log(c.avail) / c.visits)
                       + (bias / (1 + c.visits) if c is guided else 0.0))
            world.apply(node.move)
            path.append(node)
        self.play_out(world, rng)
        rewards = self.rewards(world) if world.is_over() else None
        for node in path:
            node.visits += 1
            node.reward += rewards[node.player] if rewards else 0.0

    def play_out(self, world, rng, policy=False) -> None:
        """Play ``world`` to its end (at most MAX_PLAYOUT moves) by ``policy`` (None:
        random moves), by default as ``playout`` says."""
        policy = self.playout if policy is False else policy
        epsilon = self.params["epsilon"]
        for _ in range(MAX_PLAYOUT):
            if world.is_over():
                return
            legal = world.legal_moves()
            if policy is None or len(legal) == 1 or epsilon and rng.random() < epsilon:
                world.apply(legal[rng.randrange(len(legal))])
            else:
                seat = world.current_player()
                seen = world.observation(seat) if policy.observes else None
                world.apply(policy.choose(seen, legal, rng))

    def rewards(self, world) -> list[float]:
        """Each seat's reward for a finished sample: its win share, blended (``margin``)
        with its lead over the best other score, from 0 (far behind) to 1 (far ahead),
        which tells a close loss from a rout where the win alone does not."""
        returns, margin = world.returns(), self.params["margin"]
        if not margin or len(returns) == 1:
            return returns
        scores = world.scores()
        blended = []
        for seat, score in enumerate(scores):
            best = max(other for each, other in enumerate(scores) if each != seat)
            scale = abs(score) + abs(best)
            lead = (score - best) / scale if scale else 0.0
            blended.append((1 - margin) * returns[seat] + margin * (1 + lead) / 2)
        return blended
