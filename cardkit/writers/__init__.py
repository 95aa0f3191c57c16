"""Writers: the last stage. They take imposed pages (or single cards) and the renderer, and
write files atomically: PDF sheets for home printing and the calibration page."""
