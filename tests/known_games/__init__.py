"""Games whose answer is known, written on cardkit's toolkit as a designer would, for
checking that the verdicts of ``cardkit simulate`` err at most at the rate they state
(issue 38), and that ``--tune`` finds a planted game's fair setting (issue 44): see
:mod:`.verdicts`; ``make calibrate`` runs it in full."""
