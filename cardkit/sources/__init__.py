"""Where a deck's data comes from: YAML files and spreadsheets, read with every value's
position so that a problem can name its file, line and column (or row and column)."""
