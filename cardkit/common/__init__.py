"""What every stage shares and none owns: problems and the messages that report them
(``errors``), lengths and their units (``units``), files written whole or not at all
(``atomic``), cardkit's cache folder (``cache``) and work in child processes, with limits
(``processes``).

It takes nothing from the rest of cardkit and never imports it: everything else may
import this.
"""
